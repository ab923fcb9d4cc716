// Baseline for the HTTP benchmark: the smallest Hono app on @hono/node-server, run as its own process
// so it does not share an event loop with the load generator. PORT is given by benchHttp.ts.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const app = new Hono();
app.get('/', (c) => c.json({ hello: 'world' }));

const server = serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: '127.0.0.1' });
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  if ('closeAllConnections' in server) server.closeAllConnections();
});
