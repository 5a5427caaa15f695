// A fixture for bench/bundle.test.ts: the mistake measureBundle must catch, the whole of faker with every locale.
import { allFakers } from '@faker-js/faker';

export const localeCount = Object.keys(allFakers).length;
