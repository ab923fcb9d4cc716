// One finding of a comparison. `location` names what a client touches (operation, status and field,
// or channel, message and field), so a reader finds it without knowing how the YAML is factored.
// A warning is a change that breaks some clients and not others (strict validators), or one the
// checker cannot decide: printed and counted, never a failure.
export type Severity = 'breaking' | 'warning' | 'non-breaking';
/** which document: the two published ones, or specs/internal/events.asyncapi.yaml */
export type Api = 'openapi' | 'asyncapi' | 'internal-events';

// Who produces the data decides what hurts: clients produce requests (and STOMP sends), so
// narrowing what is accepted breaks them; clients consume responses (and STOMP receives), so
// widening what may arrive breaks them.
export type Direction = 'request' | 'response';

export interface Change {
  api: Api;
  severity: Severity;
  rule: string; // stable id, e.g. response-property-removed, for grepping and tests
  location: string;
  reason: string;
}

export type Report = (severity: Severity, rule: string, location: string, reason: string) => void;

export function collector(api: Api): { changes: Change[]; report: Report } {
  const changes: Change[] = [];
  return { changes, report: (severity, rule, location, reason) => changes.push({ api, severity, rule, location, reason }) };
}
