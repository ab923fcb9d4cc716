// The start-up peer of `npm run bench`: the smallest Fastify app with a /readyz, in plain JavaScript
// so that `node` runs it without a loader (time to ready is what it is compared on). PORT from the
// environment.
import process from 'node:process';
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/readyz', async () => ({ status: 'UP' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
