// `trip-conformance-mutants --base-url URL [--ws-url URL] [--openapi FILE] [--asyncapi FILE]
//  [--login dev|token] [--token T --other-token T] [--seed N] [--max-examples N] [--timeout-ms N]
//  [--concurrency N] [--min-score N] [--operators a,b] [--json FILE]`
// The mutation self-test of the conformance runner against a running server: each operator plays a
// server bug through a mutating proxy in front of it, and the runner must notice. Exit 0 when the
// share of operators it catches is at least --min-score, 1 when below, 2 when the run through the
// proxy without any mutation already fails (or the server or its specs cannot be reached).
import fs from 'node:fs';
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { allOperators } from '../mutation/operators/index.js';
import { runMutationSelfTest } from '../mutation/selfTest.js';
import { baselineLine, formatSelfTestReport, operatorLine, selfTestJson } from '../mutation/selfTestReport.js';
import { SetupError } from '../runner/runContext.js';
import { readSpecs } from '../runner/specSource.js';
import { wsUrl } from '../stomp/stompOverWs.js';

const usage = `usage: trip-conformance-mutants --base-url http://localhost:8080 [options]
  --ws-url URL          STOMP endpoint (default: base URL with ws:// and /ws-stomp)
  --openapi FILE, --asyncapi FILE   the specs (default: the ones the server serves)
  --login dev|token     dev: members signed in with dev-login, fresh ones per run (default); token: --token and
                        --other-token for every run (then keep --concurrency low: every run connects as the same two members)
  --token T, --other-token T   access tokens of two different members (--login token)
  --seed N              seed of the runner's generated inputs (default 1)
  --max-examples N      generated requests per operation and phase, in each run (default 3)
  --timeout-ms N        per request (default 10000); a run waits at most 12x this for a generation
  --concurrency N       runs at once (default: the number of cores)
  --min-score N         the share of operators that must be caught, in percent (default 95)
  --operators LIST      comma-separated operator ids (default: all ${allOperators.length})
  --json FILE           write the report as JSON
Exit codes: 0 score at or above --min-score; 1 below it; 2 the run without mutation fails through the proxy,
or the server or its specs cannot be reached; 64 a usage error.
`;

function readArguments() {
  return parseArgs({
    options: {
      'base-url': { type: 'string' },
      'ws-url': { type: 'string' },
      openapi: { type: 'string' },
      asyncapi: { type: 'string' },
      login: { type: 'string', default: 'dev' },
      token: { type: 'string' },
      'other-token': { type: 'string' },
      seed: { type: 'string', default: '1' },
      'max-examples': { type: 'string', default: '3' },
      'timeout-ms': { type: 'string', default: '10000' },
      concurrency: { type: 'string', default: String(availableParallelism()) },
      'min-score': { type: 'string', default: '95' },
      operators: { type: 'string' },
      json: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  }).values;
}

/** The options, or what is wrong with them. */
function readOptions(values: ReturnType<typeof readArguments>) {
  const whole = ['seed', 'max-examples', 'timeout-ms', 'concurrency'] as const;
  const wrong = whole.filter((name) => !/^[0-9]+$/.test(values[name]) || (name !== 'seed' && Number(values[name]) === 0));
  if (wrong.length > 0) return `${wrong.map((name) => `--${name}`).join(', ')} must be a whole number (above 0, but for --seed)`;
  const minScore = Number(values['min-score']);
  if (!/^[0-9]+(\.[0-9]+)?$/.test(values['min-score']) || minScore > 100) return '--min-score must be a percentage from 0 to 100';
  if (!['dev', 'token'].includes(values.login)) return `unknown login ${values.login}`;
  if (values.login === 'token' && !(values.token && values['other-token'])) return '--login token needs --token and --other-token (two different members)';
  const ids = values.operators?.split(',').map((id) => id.trim()) ?? allOperators.map((o) => o.id);
  const unknown = ids.filter((id) => !allOperators.some((o) => o.id === id));
  if (unknown.length > 0) return `unknown operator(s) ${unknown.join(', ')}`;
  return { minScore, operators: allOperators.filter((o) => ids.includes(o.id)) };
}

async function main(): Promise<number> {
  let values: ReturnType<typeof readArguments>;
  try {
    values = readArguments();
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${usage}`);
    return 64;
  }
  if (values.help || !values['base-url']) {
    process.stdout.write(usage);
    return values.help ? 0 : 64;
  }
  const options = readOptions(values);
  if (typeof options === 'string') {
    process.stderr.write(`${options}\n${usage}`);
    return 64;
  }
  const baseUrl = values['base-url'].replace(/\/$/, '');
  const timeoutMs = Number(values['timeout-ms']);
  const { spec } = await readSpecs({ baseUrl, openapiFile: values.openapi, asyncapiFile: values.asyncapi, timeoutMs });
  const concurrency = Number(values.concurrency);
  process.stdout.write(`mutation self-test: ${options.operators.length} operators against ${baseUrl}, ${concurrency} at a time, seed ${values.seed}\n`);
  const report = await runMutationSelfTest(spec, {
    baseUrl,
    wsUrl: values['ws-url'] ?? wsUrl(baseUrl),
    login: values.login as 'dev' | 'token',
    tokens: values.token && values['other-token'] ? [values.token, values['other-token']] : undefined,
    seed: Number(values.seed),
    maxExamples: Number(values['max-examples']),
    timeoutMs,
    concurrency,
    operators: options.operators,
    onResult: (result) => process.stdout.write(`${result.kind === 'baseline' ? baselineLine(result) : operatorLine(result)}\n`),
  });
  process.stdout.write(`\n${formatSelfTestReport(report, options.minScore)}`);
  if (values.json) fs.writeFileSync(values.json, selfTestJson(report, options.minScore));
  if (!report.baseline.passed) return 2;
  return report.score >= options.minScore ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof SetupError) {
      process.stderr.write(`conformance mutants: ${error.message}\n`);
      process.exit(2);
    }
    if (error instanceof TypeError && /fetch failed/.test(error.message)) {
      const cause = (error as { cause?: { message?: string } }).cause?.message ?? error.message;
      process.stderr.write(`conformance mutants: cannot reach the server (${cause})\n`);
      process.exit(2);
    }
    throw error;
  },
);
