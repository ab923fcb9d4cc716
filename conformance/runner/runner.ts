// Runs the conformance phases in order against a server and returns the reports. Usable from the
// CLI (npm run conformance) and in-process from tests. With a deadline, a phase still running when
// it passes is reported as stopped there, and the phases after it do not run.
import { PhaseRecorder, type PhaseName, type PhaseReport } from './checks.js';
import { coverageOf, type CoverageReport, type Observation } from './coverage.js';
import { beforeDeadline, deadlinePassed } from './deadline.js';
import { runAsyncPhase } from './phases/async.js';
import { runAuthPhase } from './phases/auth.js';
import { runDeliveryPhase } from './phases/delivery.js';
import { runConventionsPhase } from './phases/conventions.js';
import { runExamplesPhase } from './phases/examples.js';
import { runNegativePhase } from './phases/negative.js';
import { runPagingPhase } from './phases/paging.js';
import { runPositivePhase } from './phases/positive.js';
import { runRobustnessPhase } from './phases/robustness.js';
import { runStatefulPhase } from './phases/stateful.js';
import { createRunContext, SetupError, type RunContext, type RunOptions } from './runContext.js';
import type { SpecIndex } from './specIndex.js';

// robustness last: on a server that fails it, its hostile inputs cannot disturb the other phases.
export const allPhases: PhaseName[] = ['examples', 'positive', 'negative', 'auth', 'stateful', 'paging', 'conventions', 'async', 'delivery', 'robustness'];

const runners: Record<PhaseName, (ctx: RunContext) => Promise<PhaseRecorder>> = {
  examples: runExamplesPhase,
  positive: runPositivePhase,
  negative: runNegativePhase,
  auth: runAuthPhase,
  stateful: runStatefulPhase,
  paging: runPagingPhase,
  conventions: runConventionsPhase,
  async: runAsyncPhase,
  delivery: runDeliveryPhase,
  robustness: runRobustnessPhase,
};

export interface ConformanceResult {
  reports: PhaseReport[];
  /** (check target) pairs that ran per phase, for JUnit */
  cases: Map<string, Set<string>>;
  /** what the run exercised of what the specs document */
  coverage: CoverageReport;
  failed: boolean;
}

/** The command that runs one phase again as this run did (same seed, budget and instances). */
function rerunCommand(options: RunOptions, phase: PhaseName): string {
  const instances = (options.instances ?? []).map((i) => ` --instance ${i.baseUrl},${i.wsUrl}`).join('');
  return `trip-conformance --base-url ${options.baseUrl}${instances} --phases ${phase} --seed ${options.seed} --max-examples ${options.maxExamples}`;
}

/** A phase's recorder: what it found, or a failure saying why it stopped (an error, the deadline). */
async function runPhase(phase: PhaseName, ctx: RunContext, deadlineAt: number | undefined, notRun: PhaseName[]): Promise<PhaseRecorder> {
  try {
    const finished = await beforeDeadline(runners[phase](ctx), deadlineAt);
    if (finished !== deadlinePassed) return finished;
    const recorder = new PhaseRecorder(phase);
    const rest = notRun.length > 0 ? `; not run: ${notRun.join(', ')}` : '';
    recorder.check(false, 'run_deadline', phase, `the run's deadline passed during this phase, and the run stopped here${rest}`, '');
    return recorder;
  } catch (error) {
    // A phase that cannot finish (the server hung up, a setup call failed) is a failure, not a crash.
    const recorder = new PhaseRecorder(phase);
    const message = `the phase stopped: ${error instanceof Error ? error.message : String(error)}`;
    recorder.check(false, phase === 'async' || phase === 'delivery' ? 'stomp_error_frame' : 'not_5xx', phase, message, '');
    return recorder;
  }
}

export async function runConformance(
  spec: SpecIndex,
  options: RunOptions,
  phases: PhaseName[] = allPhases,
  onPhase: (report: PhaseReport) => void = () => undefined,
): Promise<ConformanceResult> {
  const deadlineAt = options.deadlineMs === undefined ? undefined : Date.now() + options.deadlineMs;
  const ctx = await beforeDeadline(createRunContext(spec, options), deadlineAt);
  if (ctx === deadlinePassed) throw new SetupError(`the run's deadline (${options.deadlineMs} ms) passed while signing in and creating its trip plans`);
  const reports: PhaseReport[] = [];
  const cases = new Map<string, Set<string>>();
  const observed: Observation[] = [];
  const selected = allPhases.filter((p) => phases.includes(p));
  for (const [index, phase] of selected.entries()) {
    const started = performance.now();
    const recorder = await runPhase(phase, ctx, deadlineAt, selected.slice(index + 1));
    recorder.report.ms = Math.round(performance.now() - started);
    for (const failure of recorder.report.failures) failure.rerun = rerunCommand(options, phase);
    observed.push(...recorder.observed);
    reports.push(recorder.report);
    cases.set(phase, recorder.cases);
    onPhase(recorder.report);
    if (recorder.report.tally.run_deadline) break;
  }
  return { reports, cases, coverage: coverageOf(spec, observed), failed: reports.some((r) => r.failures.length > 0) };
}
