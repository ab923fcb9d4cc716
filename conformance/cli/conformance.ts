// `trip-conformance --base-url URL [--openapi FILE] [--asyncapi FILE] [--ws-url URL] [--login dev|token]
//  [--token T --other-token T] [--seed N] [--max-examples N] [--phases a,b] [--junit FILE]
//  [--timeout-ms N] [--deadline-ms N] [--max-document-bytes N] [--max-body-bytes N]
//  [--instance BASE_URL[,WS_URL] ...] [--fault-hook POINT=COMMAND ...]`
// Checks a running server against its specs: the openapi.yaml and asyncapi.yaml it serves, or the
// given files. Exit code 0 only when no check failed. Whatever the server or its specs do, the run
// ends by its deadline and reads no more than the size limits.
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import type { PhaseName } from '../runner/checks.js';
import { printCoverage, printPhase, printSummary } from '../runner/printReport.js';
import { toJunitXml } from '../runner/junit.js';
import { defaultMaxBodyBytes } from '../runner/httpProbe.js';
import { parseFaultHook, type FaultHook } from '../runner/faultHooks.js';
import { allPhases, runConformance } from '../runner/runner.js';
import { SetupError, type Instance } from '../runner/runContext.js';
import { readSpecs } from '../runner/specSource.js';
import { defaultMaxDocumentBytes } from '../specModel/index.js';
import { wsUrl } from '../stomp/stompOverWs.js';

const defaultDeadlineMs = 30 * 60 * 1000;

const usage = `usage: trip-conformance --base-url http://localhost:8080 [options]
       trip-conformance --instance http://host-a:8080 --instance http://host-b:8080 [options]
  --openapi FILE        the OpenAPI document to check against (default: GET <base-url>/openapi.yaml)
  --asyncapi FILE       the AsyncAPI document (default: GET <base-url>/asyncapi.yaml); its cross-file refs are followed
  --ws-url URL          STOMP endpoint (default: base URL with ws:// and /ws-stomp)
  --login dev|token     dev: sign in two members with dev-login (default); token: use --token and --other-token
  --token T, --other-token T   access tokens of two different members (--login token)
  --seed N              seed of the generated inputs (default 1); a failing run replays with the same seed
  --max-examples N      generated requests per operation and phase (default 25)
  --phases LIST         comma-separated subset of ${allPhases.join(',')}
  --junit FILE          write JUnit XML
  --coverage FILE       write the coverage report as JSON (operations x statuses, response headers, channels x
                        messages, error codes: documented, exercised, not reached)
  --min-coverage N      fail (exit 1) when less than N percent of what the specs document was exercised
  --timeout-ms N        per request, its body read and checked (default 10000); generations wait up to 12x this
  --deadline-ms N       the whole run (default ${defaultDeadlineMs}); past it the run stops and reports what it has
  --max-document-bytes N  the largest spec document read (default ${defaultMaxDocumentBytes})
  --max-body-bytes N    the largest response body or STOMP frame read (default ${defaultMaxBodyBytes})
  --instance URL[,WS]   an instance of the deployment (repeat for each; the first is the base URL unless --base-url
                        is given); the delivery phase spreads its subscribers and writes over them
  --fault-hook P=CMD    run CMD (sh -c) at point P of the delivery phase's generation: after-day-N (once a subscriber
                        got day N) or after-run; repeatable. The command gets TRIP_CONFORMANCE_POINT,
                        TRIP_CONFORMANCE_TRIP_PLAN_ID and TRIP_CONFORMANCE_INSTANCES
Exit codes: 0 every check held; 1 a check failed (or the deadline stopped the run); 2 the run could not
start (server unreachable, specs unreadable or too large, sign-in refused); 64 a usage error.
`;

function readArguments() {
  return parseArgs({
    options: {
      'base-url': { type: 'string' },
      openapi: { type: 'string' },
      asyncapi: { type: 'string' },
      'ws-url': { type: 'string' },
      login: { type: 'string', default: 'dev' },
      token: { type: 'string' },
      'other-token': { type: 'string' },
      seed: { type: 'string', default: '1' },
      'max-examples': { type: 'string', default: '25' },
      phases: { type: 'string' },
      junit: { type: 'string' },
      coverage: { type: 'string' },
      'min-coverage': { type: 'string' },
      'timeout-ms': { type: 'string', default: '10000' },
      'deadline-ms': { type: 'string', default: String(defaultDeadlineMs) },
      'max-document-bytes': { type: 'string', default: String(defaultMaxDocumentBytes) },
      'max-body-bytes': { type: 'string', default: String(defaultMaxBodyBytes) },
      instance: { type: 'string', multiple: true },
      'fault-hook': { type: 'string', multiple: true },
      help: { type: 'boolean', default: false },
    },
  }).values;
}

/** The time and size limits, or what is wrong with them. */
function readLimits(values: ReturnType<typeof readArguments>) {
  const names = ['timeout-ms', 'deadline-ms', 'max-document-bytes', 'max-body-bytes'] as const;
  const wrong = names.filter((name) => !/^[1-9][0-9]*$/.test(values[name]));
  if (wrong.length > 0) return `${wrong.map((name) => `--${name}`).join(', ')} must be a positive whole number`;
  return {
    timeoutMs: Number(values['timeout-ms']),
    deadlineMs: Number(values['deadline-ms']),
    maxDocumentBytes: Number(values['max-document-bytes']),
    maxBodyBytes: Number(values['max-body-bytes']),
  };
}

/** `BASE_URL[,WS_URL]` (as `--instance` takes it) as an instance, or what is wrong with it. */
function parseInstance(text: string): Instance | string {
  const [base = '', ws] = text.split(',').map((part) => part.trim());
  const valid = (url: string, protocols: string[]) => URL.canParse(url) && protocols.includes(new URL(url).protocol);
  if (!valid(base, ['http:', 'https:'])) return `--instance ${JSON.stringify(text)}: the base URL must be an http(s) URL`;
  if (ws !== undefined && !valid(ws, ['ws:', 'wss:'])) return `--instance ${JSON.stringify(text)}: the STOMP endpoint must be a ws(s) URL`;
  const baseUrl = base.replace(/\/$/, '');
  return { baseUrl, wsUrl: ws ?? wsUrl(baseUrl) };
}

/** The instances and fault hooks, or what is wrong with one of them. */
function readDeployment(values: ReturnType<typeof readArguments>): { instances: Instance[]; faultHooks: FaultHook[] } | string {
  const instances = (values.instance ?? []).map(parseInstance);
  const faultHooks = (values['fault-hook'] ?? []).map(parseFaultHook);
  const wrong = [...instances, ...faultHooks].find((item): item is string => typeof item === 'string');
  if (wrong !== undefined) return wrong;
  return { instances: instances as Instance[], faultHooks: faultHooks as FaultHook[] };
}

async function main(): Promise<number> {
  let values: ReturnType<typeof readArguments>;
  try {
    values = readArguments();
  } catch (error) {
    // An unknown option or a missing value: a usage error, not a crash.
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${usage}`);
    return 64;
  }
  const deployment = readDeployment(values);
  if (typeof deployment === 'string') {
    process.stderr.write(`${deployment}\n${usage}`);
    return 64;
  }
  const given = values['base-url'] ?? deployment.instances[0]?.baseUrl;
  if (values.help || !given) {
    process.stdout.write(usage);
    return values.help ? 0 : 64;
  }
  const baseUrl = given.replace(/\/$/, '');
  const phases = (values.phases?.split(',').map((p) => p.trim()) ?? allPhases) as PhaseName[];
  const unknown = phases.filter((p) => !allPhases.includes(p));
  if (unknown.length || !['dev', 'token'].includes(values.login)) {
    process.stderr.write(`unknown phase(s) ${unknown.join(', ')} or login ${values.login}\n${usage}`);
    return 64;
  }
  const limits = readLimits(values);
  if (typeof limits === 'string') {
    process.stderr.write(`${limits}\n${usage}`);
    return 64;
  }
  const minCoverage = values['min-coverage'];
  if (minCoverage !== undefined && !(/^\d+(\.\d+)?$/.test(minCoverage) && Number(minCoverage) <= 100)) {
    process.stderr.write(`--min-coverage must be a percentage from 0 to 100\n${usage}`);
    return 64;
  }
  const { timeoutMs, deadlineMs, maxDocumentBytes, maxBodyBytes } = limits;
  const deadlineAt = Date.now() + deadlineMs;
  const { spec, openapiSource, asyncapiSource } = await readSpecs({
    baseUrl,
    openapiFile: values.openapi,
    asyncapiFile: values.asyncapi,
    timeoutMs,
    maxDocumentBytes,
    deadlineAt,
  });
  process.stdout.write(
    `conformance: ${baseUrl} against ${openapiSource} (${spec.operations.length} operations) and ${asyncapiSource} (${spec.channels.length} channels), seed ${values.seed}, max ${values['max-examples']} examples\n`,
  );
  const result = await runConformance(
    spec,
    {
      baseUrl,
      wsUrl: values['ws-url'] ?? deployment.instances.find((i) => i.baseUrl === baseUrl)?.wsUrl ?? wsUrl(baseUrl),
      login: values.login as 'dev' | 'token',
      tokens: values.token && values['other-token'] ? [values.token, values['other-token']] : undefined,
      seed: Number(values.seed),
      maxExamples: Number(values['max-examples']),
      timeoutMs,
      generationTimeoutMs: timeoutMs * 12,
      maxBodyBytes,
      deadlineMs: Math.max(0, deadlineAt - Date.now()),
      instances: deployment.instances.length > 0 ? deployment.instances : undefined,
      faultHooks: deployment.faultHooks,
    },
    phases,
    printPhase,
  );
  if (values.junit) fs.writeFileSync(values.junit, toJunitXml(result.reports, result.cases));
  if (values.coverage) fs.writeFileSync(values.coverage, `${JSON.stringify(result.coverage, null, 2)}\n`);
  printCoverage(result.coverage);
  printSummary(result.reports);
  const tooLittle = minCoverage !== undefined && result.coverage.percent < Number(minCoverage);
  if (tooLittle) process.stdout.write(`conformance: coverage ${result.coverage.percent}% is below --min-coverage ${minCoverage}\n`);
  return result.failed || tooLittle ? 1 : 0;
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
