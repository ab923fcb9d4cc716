// What the mock can answer for each operation of openapi.yaml: its documented responses with their
// example bodies (by name) and the example of every header they declare, read once with the spec
// model codegen uses. `Location` is not taken from the header example (always /api/v1/trips/42) but
// made a real path: the GET operation one level below the creating path, filled with the id
// of the created resource in the example body.
import { fillTemplate, readOperations, resolveRef, type OperationFact, type ResponseFact } from '../../conformance/specModel/index.js';

type Json = any;

export interface DocumentedResponse extends ResponseFact {
  /** the example value of each declared header that has one */
  headerExamples: Record<string, string>;
}

export interface OperationAnswers {
  operation: OperationFact;
  /** by status, ascending */
  responses: Map<number, DocumentedResponse>;
}

function headerExamples(spec: Json, op: OperationFact, status: number): Record<string, string> {
  const response = resolveRef(spec, resolveRef(spec, spec.paths[op.path])[op.method].responses[String(status)]);
  const out: Record<string, string> = {};
  for (const [name, raw] of Object.entries<Json>(response.headers ?? {})) {
    const header = resolveRef(spec, raw);
    const example = header.example ?? header.schema?.example ?? header.schema?.examples?.[0];
    if (example !== undefined) out[name] = String(example);
  }
  return out;
}

export function readOperationAnswers(spec: Json): Map<string, OperationAnswers> {
  const operations = readOperations(spec);
  return new Map(
    operations.map((operation) => [
      operation.operationId,
      { operation, responses: new Map(operation.responses.map((r) => [r.status, { ...r, headerExamples: headerExamples(spec, operation, r.status) }])) },
    ]),
  );
}

/** The path of what a 201 created, e.g. `/api/v1/trips/42` for a plan whose example `tripPlanId` is 42. */
export function createdLocation(operations: Iterable<OperationAnswers>, created: OperationFact, body: Json): string | null {
  const data = body?.data;
  for (const { operation } of operations) {
    const match = operation.method === 'get' ? new RegExp(`^${created.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&')}/\\{([^}/]+)\\}$`).exec(operation.path) : null;
    const parameter = match?.[1];
    const id = parameter ? (data?.[parameter] ?? data?.id) : undefined;
    if (parameter && id !== undefined) return fillTemplate(operation.path, { [parameter]: id });
  }
  return null;
}
