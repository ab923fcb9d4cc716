// `npm run fuzz -- [--max-examples 500] [--seed N] [--phases positive,negative]`: the conformance
// runner's generated-input phases with a large budget, against an app started in this process on a
// temporary database. The seed is printed, so a failure can be replayed exactly.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createApp } from '../src/composition/app.js';
import { openDatabasePort } from '../src/composition/openDatabase.js';
import { loadSpecIndex, printPhase, printSummary, runConformance, wsUrl, type PhaseName } from '../conformance/index.js';
import { loadConfig } from '../src/config/config.js';
import { startServer } from '../src/composition/server.js';

const { values } = parseArgs({
  options: {
    'max-examples': { type: 'string', default: '300' },
    seed: { type: 'string', default: String(Math.floor(Math.random() * 2 ** 31)) },
    phases: { type: 'string', default: 'positive,negative,auth' },
  },
});
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trip-fuzz-'));
const config = loadConfig({
  NODE_ENV: 'development',
  DATA_DIR: dir,
  RATE_LIMIT_PER_MINUTE: '0',
  PLANNER_DELAY_MS: '0',
  LOG_LEVEL: 'silent',
  RESPONSE_VALIDATION: 'log',
});
const app = await createApp(config, await openDatabasePort(config.database));
const server = await startServer(app, 0);
const root = path.resolve(import.meta.dirname, '..');
const spec = loadSpecIndex(path.join(root, 'specs/openapi.yaml'), path.join(root, 'specs/asyncapi.yaml'));
process.stdout.write(`fuzz: seed ${values.seed}, ${values['max-examples']} examples per operation, phases ${values.phases}\n`);
const result = await runConformance(
  spec,
  {
    baseUrl: server.url,
    wsUrl: wsUrl(server.url),
    login: 'dev',
    seed: Number(values.seed),
    maxExamples: Number(values['max-examples']),
    timeoutMs: 10_000,
    generationTimeoutMs: 60_000,
  },
  values.phases.split(',') as PhaseName[],
  printPhase,
);
printSummary(result.reports);
await server.close();
await app.close();
fs.rmSync(dir, { recursive: true, force: true });
process.exit(result.failed ? 1 : 0);
