/** Entry point of `npm run mock:prism` and `npm run proxy`: runs the command and sets the exit code. */
import { main } from './command.ts';

process.exitCode = await main(process.argv.slice(2));
