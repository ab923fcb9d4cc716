// trip-itinerary-conformance: what another program may use besides the CLIs (bin/): the runner and
// its reports, the STOMP clients (the recording one the runner and this repository's tests use), and
// the runner's mutation self-test (its operators and the mutating proxy they run through).
// The spec model is `trip-itinerary-conformance/specModel`.
export { allPhases, runConformance, type ConformanceResult } from './runner/runner.js';
export { createSpecIndex, loadSpecIndex, type SpecIndex } from './runner/specIndex.js';
export { readSpecs, type SpecSources } from './runner/specSource.js';
export { SetupError, type RunOptions } from './runner/runContext.js';
export type { CheckFailure, CheckName, PhaseName, PhaseReport } from './runner/checks.js';
export { printPhase, printSummary } from './runner/printReport.js';
export { toJunitXml } from './runner/junit.js';
export { connectRecordingStomp, type ReceivedMessage, type RecordingStompClient, type RecordingStompOptions } from './stomp/recordingStompClient.js';
export { createStompClient, wsUrl, type StompClientOptions } from './stomp/stompOverWs.js';
export { runMutationSelfTest, type BaselineResult, type OperatorResult, type SelfTestOptions, type SelfTestReport } from './mutation/selfTest.js';
export { formatSelfTestReport, selfTestJson } from './mutation/selfTestReport.js';
export { allOperators } from './mutation/operators/index.js';
export type { MutationOperator } from './mutation/operator.js';
export { startMutatingProxy, type MutatingProxy, type ProxySetup } from './mutation/mutatingProxy.js';
export type { Mutation, ProxyRequest, ProxyResponse, StompLink } from './mutation/mutation.js';
