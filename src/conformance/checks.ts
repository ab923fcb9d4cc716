// The checks the conformance runner applies, and how a failure is recorded. Every failure keeps
// enough to replay it (a curl line for HTTP, the frames for STOMP).
export type CheckName =
  | 'not_5xx'
  | 'status_documented'
  | 'content_type'
  | 'body_valid'
  | 'required_headers'
  | 'negative_rejected'
  | 'auth_required'
  | 'no_existence_leak'
  | 'use_after_free'
  | 'stateful_flow'
  | 'message_valid'
  | 'message_order'
  | 'stomp_error_frame';

export type PhaseName = 'examples' | 'positive' | 'negative' | 'auth' | 'stateful' | 'async';

export interface CheckFailure {
  phase: PhaseName;
  check: CheckName;
  /** operationId or channel */
  target: string;
  message: string;
  /** how to replay it */
  replay: string;
}

export interface PhaseReport {
  phase: PhaseName;
  requests: number;
  messages: number;
  checks: number;
  failures: CheckFailure[];
  ms: number;
}

/** Collects check results of one phase. */
export class PhaseRecorder {
  readonly report: PhaseReport;
  constructor(phase: PhaseName) {
    this.report = { phase, requests: 0, messages: 0, checks: 0, failures: [], ms: 0 };
  }

  /** every (check, target) pair that ran, for the JUnit test cases */
  readonly cases = new Set<string>();

  check(passed: boolean, check: CheckName, target: string, message: string, replay: string): boolean {
    this.report.checks++;
    this.cases.add(`${check} ${target}`);
    if (!passed) this.report.failures.push({ phase: this.report.phase, check, target, message, replay });
    return passed;
  }
}
