/** The bench's own servers: the minimal yardstick, the rungs between it and the mock, and how their answers are taken from the mock. */
export {
  captureAnswers,
  type LoadName,
  MIXED_ROUTES,
  ROUTE_REQUESTS,
  ROUTE_TITLES,
  resetMock,
} from './capture.ts';
export { createVariantServer, VARIANTS } from './cli.ts';
export type {
  FixedAnswers,
  RouteName,
} from './minimal.ts';
