// The least a Node HTTP server does before its first 200: boot node, load node:http, listen.
// `npm start -- --port P` here measures npm's own share of `npm start` (see bench/README.md).
import { createServer } from 'node:http';

const port = Number(process.argv[process.argv.indexOf('--port') + 1]);
createServer((_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end('[]')).listen(
  port,
  '127.0.0.1',
);
