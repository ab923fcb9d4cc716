// Header values against the schemas openapi.yaml gives them (check `header_valid`). A header is text;
// its schema says what the text stands for, so it is read as that type first, strictly: an integer
// header is a canonical decimal integer (`42`, `-1`; not `042`, `+42`, `4.2e1` or ` 42`), which
// the schema's bounds then judge; text that is not one stays text, and the schema refuses it.
import { resolveObject, type Json, type JsonObject, type ResponseFact } from '../specModel/index.js';
import type { PhaseRecorder } from './checks.js';
import type { ProbeResponse } from './httpProbe.js';
import type { SchemaProblem } from './sandbox/sandbox.js';
import type { SpecIndex } from './specIndex.js';

const canonicalInteger = /^-?(0|[1-9][0-9]*)$/;
const decimalNumber = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;

/** The first type a schema names other than null, or null when it names none. */
function typeOf(schema: JsonObject): Json {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types.find((type) => type !== 'null' && type !== undefined) ?? null;
}

/** The header's text as the value its schema describes: a number, a boolean, or the text itself. */
export function headerValue(text: string, schema: JsonObject): Json {
  switch (typeOf(schema)) {
    case 'integer':
      return canonicalInteger.test(text) ? Number(text) : text;
    case 'number':
      return decimalNumber.test(text) ? Number(text) : text;
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : text;
    default:
      return text;
  }
}

const problemList = (problems: SchemaProblem[]) =>
  problems
    .slice(0, 3)
    .map(({ message }) => message)
    .join('; ');

/** Checks every documented header the response has against its schema. Returns false when one failed. */
export function checkHeaderValues(
  recorder: PhaseRecorder,
  spec: SpecIndex,
  documented: ResponseFact,
  response: ProbeResponse,
  replay: string,
  operationId: string,
): boolean {
  let ok = true;
  for (const { name, schema } of documented.headerSchemas) {
    const text = response.headers.get(name);
    // A missing header is required_headers' to judge.
    if (text === null) continue;
    const verdict = spec.schemaValidator('openapi', schema)(headerValue(text, resolveObject(spec.openapi, schema)));
    const problem =
      verdict.undecided !== undefined
        ? `header ${name} was not checked: ${verdict.undecided}`
        : `header ${name} is ${JSON.stringify(text)}, which does not match its schema: ${problemList(verdict.problems)}`;
    ok = recorder.check(verdict.valid, 'header_valid', operationId, `status ${response.status}: ${problem}`, replay) && ok;
  }
  return ok;
}
