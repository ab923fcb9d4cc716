// What the mock can answer for each operation of openapi.yaml: its documented responses with their
// example bodies (by name) and the example of every header they declare, read once with the spec
// model codegen uses. `Location` is not taken from the header example (always /api/v1/trips/42) but
// made a real path: the GET operation one level below the creating path, filled with the id
// of the created resource in the example body.
import {
  arrayOrEmpty,
  fillTemplate,
  jsonAt,
  objectOrEmpty,
  readOperations,
  resolveObject,
  type Json,
  type JsonObject,
  type OperationFact,
  type ResponseFact,
} from '../../conformance/specModel/index.js';

export interface DocumentedResponse extends ResponseFact {
  /** the example value of each declared header that has one */
  headerExamples: Record<string, string>;
}

export interface OperationAnswers {
  operation: OperationFact;
  /** by status, ascending */
  responses: Map<number, DocumentedResponse>;
}

function headerExamples(spec: JsonObject, op: OperationFact, status: number): Record<string, string> {
  const item = resolveObject(spec, jsonAt(spec, 'paths', op.path));
  const response = resolveObject(spec, jsonAt(item, op.method, 'responses', String(status)));
  const out: Record<string, string> = {};
  for (const [name, raw] of Object.entries(objectOrEmpty(response.headers))) {
    const header = resolveObject(spec, raw);
    const schema = objectOrEmpty(header.schema);
    const example = header.example ?? schema.example ?? arrayOrEmpty(schema.examples)[0];
    if (example !== undefined) out[name] = typeof example === 'string' ? example : JSON.stringify(example);
  }
  return out;
}

export function readOperationAnswers(spec: JsonObject): Map<string, OperationAnswers> {
  const operations = readOperations(spec);
  return new Map(
    operations.map((operation) => [
      operation.operationId,
      { operation, responses: new Map(operation.responses.map((r) => [r.status, { ...r, headerExamples: headerExamples(spec, operation, r.status) }])) },
    ]),
  );
}

/** The path of what a 201 created, e.g. `/api/v1/trips/42` for a plan whose example `tripPlanId` is 42. */
export function createdLocation(operations: Iterable<OperationAnswers>, created: OperationFact, body: Json | undefined): string | null {
  const data = objectOrEmpty(jsonAt(body, 'data'));
  for (const { operation } of operations) {
    const match = operation.method === 'get' ? new RegExp(`^${created.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&')}/\\{([^}/]+)\\}$`).exec(operation.path) : null;
    const parameter = match?.[1];
    const id = parameter ? (data[parameter] ?? data.id) : undefined;
    if (parameter && (typeof id === 'string' || typeof id === 'number')) return fillTemplate(operation.path, { [parameter]: id });
  }
  return null;
}
