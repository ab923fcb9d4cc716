// The mutation self-test: how much of what the specs promise the conformance runner would notice
// breaking. For each operator a mutating proxy in front of the server under test plays its bug, and
// the runner runs through that proxy (in this process, the operator's phases only): the operator is
// killed when a check fails, and survived when none does. A run through a proxy without any
// mutation (the baseline) must pass first-hand, or the proxy itself is broken and nothing the
// operators show can be trusted.
import { allPhases, runConformance } from '../runner/runner.js';
import type { CheckFailure, PhaseName } from '../runner/checks.js';
import { SetupError, type RunOptions } from '../runner/runContext.js';
import type { SpecIndex } from '../runner/specIndex.js';
import { startMutatingProxy } from './mutatingProxy.js';
import type { Mutation } from './mutation.js';
import type { MutationOperator } from './operator.js';
import { allOperators } from './operators/index.js';

export interface SelfTestOptions extends Pick<RunOptions, 'baseUrl' | 'wsUrl' | 'login' | 'tokens' | 'seed' | 'maxExamples' | 'timeoutMs' | 'maxBodyBytes'> {
  /** how many operators run at once */
  concurrency: number;
  /** the operators to run (default: all) */
  operators?: readonly MutationOperator[];
  /** how long a run waits for a generation (default 12 × timeoutMs, as the runner's CLI) */
  generationTimeoutMs?: number;
  /** the longest one run may take (default 30 × timeoutMs); past it the run fails run_deadline */
  runDeadlineMs?: number;
  /** told of each result as it comes */
  onResult?: (result: OperatorResult | BaselineResult) => void;
}

/** What failed: a check of the runner (or `setup`, when it refused to start) on a target, and its message. */
export interface Failure {
  check: string;
  target: string;
  message: string;
}

export interface OperatorResult {
  kind: 'operator';
  operator: MutationOperator;
  /** killed: a check failed; survived: none did; error: the run could not be made (the proxy or the runner broke) */
  status: 'killed' | 'survived' | 'error';
  /** when killed: the first failure, and every check that failed (in the order they first did) */
  failure?: Failure;
  failedChecks: string[];
  /** when it survived or erred: why */
  reason?: string;
  /** how often the mutation replaced something */
  applied: number;
  /** the phases that ran, and those of the operator this runner does not have */
  phases: PhaseName[];
  missingPhases: string[];
  ms: number;
}

export interface BaselineResult {
  kind: 'baseline';
  passed: boolean;
  phases: PhaseName[];
  /** the first failures, or why the run could not start */
  failures: (Failure & { phase?: PhaseName })[];
  ms: number;
}

export interface SelfTestReport {
  baseline: BaselineResult;
  /** the operators that ran (when the baseline failed, those started before it did) */
  operators: OperatorResult[];
  /** how many operators were asked for, the score's denominator */
  total: number;
  killed: number;
  /** the share of operators killed, in percent (one decimal) */
  score: number;
}

const noMutation: Mutation = {};

const firstFailures = (failures: CheckFailure[]) => failures.slice(0, 5).map(({ phase, check, target, message }) => ({ phase, check, target, message }));

/** The runner starts its members' names with the millisecond it starts in: two runs must not share one. */
let lastStart = 0;
async function ownMillisecond(): Promise<void> {
  while (Date.now() <= lastStart) await new Promise((resolve) => setTimeout(resolve, 1));
  lastStart = Date.now();
}

/** One run of the runner through a proxy playing `mutation`: its failures, or the error that stopped it. */
async function runThrough(spec: SpecIndex, options: SelfTestOptions, mutation: Mutation, phases: PhaseName[]) {
  const proxy = await startMutatingProxy({ baseUrl: options.baseUrl, wsUrl: options.wsUrl, mutation, timeoutMs: options.timeoutMs * 12 });
  const started = performance.now();
  try {
    await ownMillisecond();
    const result = await runConformance(
      spec,
      {
        baseUrl: proxy.url,
        wsUrl: proxy.wsUrl,
        login: options.login,
        tokens: options.tokens,
        seed: options.seed,
        maxExamples: options.maxExamples,
        timeoutMs: options.timeoutMs,
        generationTimeoutMs: options.generationTimeoutMs ?? options.timeoutMs * 12,
        maxBodyBytes: options.maxBodyBytes,
        deadlineMs: options.runDeadlineMs ?? options.timeoutMs * 30,
      },
      phases,
    );
    return { failures: result.reports.flatMap((r) => r.failures), error: null, applied: proxy.applied(), ms: performance.now() - started };
  } catch (error) {
    return { failures: [], error, applied: proxy.applied(), ms: performance.now() - started };
  } finally {
    await proxy.close();
  }
}

/** One phase of the baseline: the runner through a proxy that mutates nothing. */
async function runBaselinePhase(spec: SpecIndex, options: SelfTestOptions, phase: PhaseName): Promise<BaselineResult> {
  const run = await runThrough(spec, options, noMutation, [phase]);
  const failures = run.error
    ? [{ phase, check: 'setup', target: 'setup', message: `the run could not start: ${errorText(run.error)}` }]
    : firstFailures(run.failures);
  return { kind: 'baseline', passed: failures.length === 0, phases: [phase], failures, ms: Math.round(run.ms) };
}

/** The baseline of several phases as one (each phase was a run of its own). */
const joined = (runs: BaselineResult[], phases: PhaseName[]): BaselineResult => ({
  kind: 'baseline',
  passed: runs.every((run) => run.passed),
  phases,
  failures: runs.flatMap((run) => run.failures),
  ms: Math.max(0, ...runs.map((run) => run.ms)),
});

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

async function runOperator(spec: SpecIndex, options: SelfTestOptions, operator: MutationOperator): Promise<OperatorResult> {
  const phases = allPhases.filter((phase) => operator.phases.includes(phase));
  const missingPhases = operator.phases.filter((phase) => !(allPhases as readonly string[]).includes(phase));
  const base = { kind: 'operator' as const, operator, phases, missingPhases, failedChecks: [] };
  if (phases.length === 0)
    return { ...base, status: 'survived', reason: `none of its phases is in this runner (${missingPhases.join(', ')})`, applied: 0, ms: 0 };
  const run = await runThrough(spec, options, operator.mutation(), phases);
  const done = { ...base, applied: run.applied, ms: Math.round(run.ms) };
  const missing = missingPhases.length > 0 ? `; not in this runner: phase ${missingPhases.join(', ')}` : '';
  if (run.error instanceof SetupError)
    return { ...done, status: 'killed', failure: { check: 'setup', target: 'setup', message: run.error.message }, failedChecks: ['setup'] };
  if (run.error) return { ...done, status: 'error', reason: `the run ended with an error: ${errorText(run.error)}` };
  const first = run.failures[0];
  if (first)
    return {
      ...done,
      status: 'killed',
      failure: { check: first.check, target: first.target, message: first.message },
      failedChecks: [...new Set(run.failures.map((f) => f.check))],
    };
  const reason =
    run.applied === 0
      ? `the mutation never applied: nothing it changes passed the proxy in ${phases.join(', ')}${missing}`
      : `no check failed (the mutation applied ${run.applied} times)${missing}`;
  return { ...done, status: 'survived', reason };
}

/**
 * Runs the baseline (one unmutated run per phase any operator needs, so they overlap like the
 * operators do) and every operator, `concurrency` runs at a time. Once a phase of the baseline has
 * failed, operators not started yet are not run.
 */
export async function runMutationSelfTest(spec: SpecIndex, options: SelfTestOptions): Promise<SelfTestReport> {
  const operators = options.operators ?? allOperators;
  const phases = allPhases.filter((phase) => operators.some((o) => o.phases.includes(phase)));
  const baselineRuns: BaselineResult[] = [];
  const results: OperatorResult[] = [];
  const jobs: (() => Promise<void>)[] = [
    ...phases.map((phase) => async () => {
      baselineRuns.push(await runBaselinePhase(spec, options, phase));
      if (baselineRuns.length === phases.length) options.onResult?.(joined(baselineRuns, phases));
    }),
    ...operators.map((operator) => async () => {
      if (baselineRuns.some((run) => !run.passed)) return;
      const result = await runOperator(spec, options, operator);
      results.push(result);
      options.onResult?.(result);
    }),
  ];
  const worker = async () => {
    for (let job = jobs.shift(); job; job = jobs.shift()) await job();
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
  const ordered = operators.flatMap((operator) => results.filter((r) => r.operator === operator));
  const killed = ordered.filter((r) => r.status === 'killed').length;
  return {
    baseline: joined(baselineRuns, phases),
    operators: ordered,
    total: operators.length,
    killed,
    score: operators.length === 0 ? 0 : Math.round((1000 * killed) / operators.length) / 10,
  };
}
