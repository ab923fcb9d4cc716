// `npm run conformance -- --base-url URL [--ws-url URL] [--login dev|token] [--token T --other-token T]
//  [--seed N] [--max-examples N] [--phases a,b] [--junit FILE]`
// Checks a running server against specs/openapi.yaml and specs/asyncapi.yaml. Exit code 0 only when
// no check failed.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { PhaseName } from '../runner/checks.js';
import { printPhase, printSummary } from '../runner/printReport.js';
import { toJunitXml } from '../runner/junit.js';
import { allPhases, runConformance } from '../runner/runner.js';
import { SetupError } from '../runner/runContext.js';
import { loadSpecIndex } from '../runner/specIndex.js';

const usage = `usage: npm run conformance -- --base-url http://localhost:8080 [options]
  --ws-url URL          STOMP endpoint (default: base URL with ws:// and /ws-stomp)
  --login dev|token     dev: sign in two members with dev-login (default); token: use --token and --other-token
  --token T, --other-token T   access tokens of two different members (--login token)
  --seed N              seed of the generated inputs (default 1); a failing run replays with the same seed
  --max-examples N      generated requests per operation and phase (default 25)
  --phases LIST         comma-separated subset of ${allPhases.join(',')}
  --junit FILE          write JUnit XML
  --timeout-ms N        per request (default 10000); generations wait up to 12x this
`;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      'base-url': { type: 'string' },
      'ws-url': { type: 'string' },
      login: { type: 'string', default: 'dev' },
      token: { type: 'string' },
      'other-token': { type: 'string' },
      seed: { type: 'string', default: '1' },
      'max-examples': { type: 'string', default: '25' },
      phases: { type: 'string' },
      junit: { type: 'string' },
      'timeout-ms': { type: 'string', default: '10000' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help || !values['base-url']) {
    process.stdout.write(usage);
    return values.help ? 0 : 64;
  }
  const baseUrl = values['base-url'].replace(/\/$/, '');
  const phases = (values.phases?.split(',').map((p) => p.trim()) ?? allPhases) as PhaseName[];
  const unknown = phases.filter((p) => !allPhases.includes(p));
  if (unknown.length || !['dev', 'token'].includes(values.login!)) {
    process.stderr.write(`unknown phase(s) ${unknown.join(', ')} or login ${values.login}\n${usage}`);
    return 64;
  }
  const timeoutMs = Number(values['timeout-ms']);
  const spec = loadSpecIndex(path.join(root, 'specs/openapi.yaml'), path.join(root, 'specs/asyncapi.yaml'));
  process.stdout.write(`conformance: ${baseUrl} against specs/openapi.yaml (${spec.operations.length} operations) and specs/asyncapi.yaml (${spec.channels.length} channels), seed ${values.seed}, max ${values['max-examples']} examples\n`);
  const result = await runConformance(
    spec,
    {
      baseUrl,
      wsUrl: values['ws-url'] ?? `${baseUrl.replace(/^http/, 'ws')}/ws-stomp`,
      login: values.login as 'dev' | 'token',
      tokens: values.token && values['other-token'] ? [values.token, values['other-token']] : undefined,
      seed: Number(values.seed),
      maxExamples: Number(values['max-examples']),
      timeoutMs,
      generationTimeoutMs: timeoutMs * 12,
    },
    phases,
    printPhase,
  );
  if (values.junit) fs.writeFileSync(values.junit, toJunitXml(result.reports, result.cases));
  printSummary(result.reports);
  return result.failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof SetupError) {
      process.stderr.write(`conformance: ${error.message}\n`);
      process.exit(2);
    }
    if (error instanceof TypeError && /fetch failed/.test(error.message)) {
      const cause = (error as { cause?: { message?: string } }).cause?.message ?? error.message;
      process.stderr.write(`conformance: cannot reach the server (${cause})\n`);
      process.exit(2);
    }
    throw error;
  },
);
