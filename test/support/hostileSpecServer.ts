// A server the conformance runner must survive: it serves a small spec of its own (sign-in, trip
// creation and one operation, getEcho, whose answers the test chooses) and answers each request as
// the test says, however hostile: a document or body that never ends, a pattern that backtracks.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One route's answer; returning false leaves the request to the spec's default answers. */
export type HostileRoute = (req: http.IncomingMessage, res: http.ServerResponse) => boolean;

export interface HostileServer {
  url: string;
  close(): Promise<void>;
}

const json = { 'content-type': 'application/json' };
const bodySchema = (example: unknown) => ({ required: true, content: { 'application/json': { schema: { type: 'object' }, example } } });
const answer = (schema: unknown) => ({ description: 'the answer', content: { 'application/json': { schema } } });

/** The OpenAPI document it serves: getEcho answers `echoSchema` (a named schema, Echo). */
export function hostileOpenapi(echoSchema: unknown = { type: 'object' }): object {
  return {
    openapi: '3.1.0',
    info: { title: 'hostile', version: '1.0.0' },
    paths: {
      '/dev-login': { post: { operationId: 'devLogin', requestBody: bodySchema({ email: 'a@example.com' }), responses: { 200: answer({ type: 'object' }) } } },
      '/trips': {
        post: {
          operationId: 'createTripPlanSession',
          requestBody: bodySchema({ region: 'Seoul', duration: 1 }),
          responses: { 201: answer({ type: 'object' }) },
        },
      },
      '/echo': { get: { operationId: 'getEcho', responses: { 200: answer({ $ref: '#/components/schemas/Echo' }) } } },
    },
    components: { schemas: { Echo: echoSchema } },
  };
}

export const hostileAsyncapi = { asyncapi: '3.0.0', info: { title: 'hostile', version: '1.0.0' }, channels: {}, operations: {} };

/**
 * Writes `chunk` until `total` bytes are out (Infinity: until the client goes), waiting for the
 * socket to drain, so the server itself stays small however much it sends.
 */
export function stream(res: http.ServerResponse, chunk: Buffer, total = Infinity): void {
  let sent = 0;
  const more = () => {
    while (sent < total && !res.destroyed) {
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', more);
    }
    if (!res.destroyed) res.end();
  };
  more();
}

export async function startHostileServer(route: HostileRoute, openapi: object = hostileOpenapi()): Promise<HostileServer> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (route(req, res)) return;
      if (req.url === '/openapi.yaml') return void res.writeHead(200, json).end(JSON.stringify(openapi));
      if (req.url === '/asyncapi.yaml') return void res.writeHead(200, json).end(JSON.stringify(hostileAsyncapi));
      if (req.url === '/dev-login') return void res.writeHead(200, json).end(JSON.stringify({ data: { accessToken: 'token-of-a-member' } }));
      if (req.url === '/trips') return void res.writeHead(201, json).end(JSON.stringify({ data: { tripPlanId: 1, chatRoomId: 1 } }));
      if (req.url === '/echo') return void res.writeHead(200, json).end('{"data":{}}');
      res.writeHead(404, json).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
