/** The bench's own servers: the minimal yardstick, the rungs between it and the mock, and how their answers are taken from the mock. */
export {
  type CaptureOptions,
  captureAnswers,
  type LoadName,
  MIXED_ROUTES,
  NEW_PET,
  RESET_PATH,
  ROUTE_REQUESTS,
  resetMock,
} from './capture.ts';
export { createVariantServer, VARIANTS, type Variant, type VariantOptions } from './cli.ts';
export { createHandlerServer, type HandlerServerOptions } from './handler.ts';
export {
  createMinimalServer,
  type FixedAnswer,
  type FixedAnswers,
  type MinimalServerOptions,
  plainKeyCheck,
  type RouteName,
  routeOf,
} from './minimal.ts';
