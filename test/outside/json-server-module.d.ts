// json-server 0.17.4 ships no types: the part test/outside/json-server.ts uses.
declare module 'json-server' {
  import type { Server } from 'node:http';

  interface App {
    use(handler: unknown): App;
    listen(port: number, host: string): Server;
  }
  const jsonServer: {
    create(): App;
    defaults(options?: { logger?: boolean }): unknown;
    router(db: Record<string, unknown[]>): unknown;
  };
  export default jsonServer;
}
