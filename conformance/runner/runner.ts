// Runs the conformance phases in order against a server and returns the reports. Usable from the
// CLI (npm run conformance) and in-process from tests.
import { PhaseRecorder, type PhaseName, type PhaseReport } from './checks.js';
import { runAsyncPhase } from './phases/async.js';
import { runAuthPhase } from './phases/auth.js';
import { runExamplesPhase } from './phases/examples.js';
import { runNegativePhase } from './phases/negative.js';
import { runPositivePhase } from './phases/positive.js';
import { runRobustnessPhase } from './phases/robustness.js';
import { runStatefulPhase } from './phases/stateful.js';
import { createRunContext, type RunContext, type RunOptions } from './runContext.js';
import type { SpecIndex } from './specIndex.js';

// robustness last: on a server that fails it, its hostile inputs cannot disturb the other phases.
export const allPhases: PhaseName[] = ['examples', 'positive', 'negative', 'auth', 'stateful', 'async', 'robustness'];

const runners: Record<PhaseName, (ctx: RunContext) => Promise<PhaseRecorder>> = {
  examples: runExamplesPhase,
  positive: runPositivePhase,
  negative: runNegativePhase,
  auth: runAuthPhase,
  stateful: runStatefulPhase,
  async: runAsyncPhase,
  robustness: runRobustnessPhase,
};

export interface ConformanceResult {
  reports: PhaseReport[];
  /** (check target) pairs that ran per phase, for JUnit */
  cases: Map<string, Set<string>>;
  failed: boolean;
}

export async function runConformance(
  spec: SpecIndex,
  options: RunOptions,
  phases: PhaseName[] = allPhases,
  onPhase: (report: PhaseReport) => void = () => undefined,
): Promise<ConformanceResult> {
  const ctx = await createRunContext(spec, options);
  const reports: PhaseReport[] = [];
  const cases = new Map<string, Set<string>>();
  for (const phase of allPhases.filter((p) => phases.includes(p))) {
    const started = performance.now();
    let recorder: PhaseRecorder;
    try {
      recorder = await runners[phase](ctx);
    } catch (error) {
      // A phase that cannot finish (the server hung up, a setup call failed) is a failure, not a crash.
      recorder = new PhaseRecorder(phase);
      recorder.check(
        false,
        phase === 'async' ? 'stomp_error_frame' : 'not_5xx',
        phase,
        `the phase stopped: ${error instanceof Error ? error.message : String(error)}`,
        '',
      );
    }
    recorder.report.ms = Math.round(performance.now() - started);
    reports.push(recorder.report);
    cases.set(phase, recorder.cases);
    onPhase(recorder.report);
  }
  return { reports, cases, failed: reports.some((r) => r.failures.length > 0) };
}
