// `npm run dashboard -- --url http://host:port [--token T] [--port 4030]`: the live metrics page of
// /docs/dashboard on this machine, for an instance whose /docs the browser cannot reach; /metrics of
// the instance is fetched by this process (with the token, which may also come from METRICS_TOKEN,
// so that it stays out of the process list). Prints the address to open.
import { parseArgs } from 'node:util';
import { startDashboardServer } from './dashboardServer.js';

const usage = 'usage: npm run dashboard -- --url http://host:port [--token T] [--port 4030]\n';
const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    token: { type: 'string', default: process.env.METRICS_TOKEN },
    port: { type: 'string', default: '4030' },
    help: { type: 'boolean', default: false },
  },
});
const port = Number(values.port);
let instance: URL | undefined;
try {
  instance = values.url === undefined ? undefined : new URL(values.url);
} catch {
  instance = undefined;
}
if (values.help || !instance || !['http:', 'https:'].includes(instance.protocol) || !Number.isInteger(port) || port < 0 || port > 65535) {
  process.stderr.write(usage);
  process.exit(values.help ? 0 : 64);
}

const server = await startDashboardServer({ instance, token: values.token, port });
process.stdout.write(`Live metrics of ${instance.origin}: open ${server.url}\nCtrl-C stops it.\n`);
const stop = () => void server.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
