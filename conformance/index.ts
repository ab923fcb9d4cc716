// trip-itinerary-conformance: what another program may use besides the CLIs (bin/). The runner, its
// reports, and the recording STOMP client; the spec model is `trip-itinerary-conformance/specModel`.
export { allPhases, runConformance, type ConformanceResult } from './runner/runner.js';
export { createSpecIndex, loadSpecIndex, type SpecIndex } from './runner/specIndex.js';
export { readSpecs, type SpecSources } from './runner/specSource.js';
export { SetupError, type RunOptions } from './runner/runContext.js';
export type { CheckFailure, CheckName, PhaseName, PhaseReport } from './runner/checks.js';
export { printPhase, printSummary } from './runner/printReport.js';
export { toJunitXml } from './runner/junit.js';
export { wsUrl } from './stomp/recordingStompClient.js';
