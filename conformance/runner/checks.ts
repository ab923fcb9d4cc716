// The checks the conformance runner applies, and how a failure is recorded. Every failure keeps
// enough to replay it (a curl line for HTTP, the frames for STOMP).
import type { Observation } from './coverage.js';
export type CheckName =
  | 'not_5xx'
  | 'status_documented'
  | 'content_type'
  | 'body_valid'
  | 'required_headers'
  // every HTTP response: header values against their schemas, the envelope's status, an error's code and field list
  | 'header_valid'
  | 'envelope_status'
  | 'error_code'
  | 'error_fields'
  | 'negative_rejected'
  | 'auth_required'
  | 'no_existence_leak'
  | 'use_after_free'
  | 'stateful_flow'
  // phase "negative": the field the runner broke is named in errors[]
  | 'field_named'
  // phase "paging": every page of every list, walked by its cursor
  | 'page_size'
  | 'page_cursor'
  | 'page_items'
  | 'page_order'
  // phase "conventions": what the spec says of every path (405 with Allow) and every request (X-Request-Id)
  | 'method_not_allowed'
  | 'request_id'
  | 'message_valid'
  | 'message_order'
  | 'stomp_error_frame'
  | 'message_replay'
  // phase "async": the frames' headers, and the delivery guarantees of asyncapi.yaml's x-delivery
  | 'frame_headers'
  | 'log_sequence'
  | 'replay_recovered'
  // phase "delivery": the delivery guarantees over every instance, with the fault hooks
  | 'delivery_once'
  | 'delivery_gap'
  | 'delivery_recovered'
  | 'delivery_consistent'
  | 'concurrent_writes'
  | 'fault_hook'
  // every response and frame, and the run as a whole: what the runner reads and how long it runs are bounded
  | 'response_size'
  | 'run_deadline'
  // phase "robustness": hostile but bounded inputs
  | 'size_limit'
  | 'error_body_size'
  | 'date_rejected'
  | 'deep_json_rejected'
  | 'static_path_404'
  | 'canonical_id'
  | 'repeated_query_param'
  | 'unknown_region';

export type PhaseName = 'examples' | 'positive' | 'negative' | 'auth' | 'stateful' | 'paging' | 'conventions' | 'async' | 'delivery' | 'robustness';

export interface CheckFailure {
  phase: PhaseName;
  check: CheckName;
  /** operationId or channel */
  target: string;
  message: string;
  /** how to replay it */
  replay: string;
  /** the command that runs its phase again with the same seed (set by the runner) */
  rerun?: string;
}

export interface PhaseReport {
  phase: PhaseName;
  requests: number;
  messages: number;
  checks: number;
  failures: CheckFailure[];
  ms: number;
  /** per check that ran: how often, and how often it failed (held = never failed) */
  tally: Partial<Record<CheckName, { checks: number; failed: number }>>;
  /** what the phase went through, beyond counts (e.g. the connections the delivery phase lost) */
  notes?: string[];
}

/** Collects check results of one phase. */
export class PhaseRecorder {
  readonly report: PhaseReport;
  constructor(phase: PhaseName) {
    this.report = { phase, requests: 0, messages: 0, checks: 0, failures: [], ms: 0, tally: {} };
  }

  /** every (check, target) pair that ran, for the JUnit test cases */
  readonly cases = new Set<string>();

  /** what the phase exercised, for the coverage report */
  readonly observed: Observation[] = [];

  observe(observation: Observation): void {
    this.observed.push(observation);
  }

  check(passed: boolean, check: CheckName, target: string, message: string, replay: string): boolean {
    this.report.checks++;
    const tally = (this.report.tally[check] ??= { checks: 0, failed: 0 });
    tally.checks++;
    if (!passed) tally.failed++;
    this.cases.add(`${check} ${target}`);
    if (!passed) this.report.failures.push({ phase: this.report.phase, check, target, message, replay });
    return passed;
  }
}
