// The sandbox's worker thread: validates values against the specs' schemas (ajv, compiled here from
// the documents) and matches texts against the specs' patterns. Anything here may run for as long
// as a hostile spec makes it (a pattern that backtracks catastrophically blocks its thread); the
// runner's thread waits a bounded time and terminates this one.
import { workerData } from 'node:worker_threads';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { addSpecFormats, jsonAt, rebaseRefs } from '../../specModel/index.js';
import { signal, type SandboxAnswer, type SandboxRequest, type SandboxWorkerData } from './sandboxProtocol.js';

const { openapi, asyncapi, signals, port } = workerData as SandboxWorkerData;
const flags = new Int32Array(signals);

function startValidation(): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true, allowUnionTypes: true });
  addSpecFormats(ajv);
  // The spec model reads `uri-reference` as an annotation (so do codegen and the server); the runner
  // holds answers to it: a `Location`, a link's `href` is a URI reference.
  ajv.addFormat('uri-reference', fullFormats['uri-reference']);
  ajv.addSchema({ $id: 'urn:conformance:openapi', components: { schemas: jsonAt(openapi, 'components', 'schemas') } });
  ajv.addSchema({ $id: 'urn:conformance:asyncapi', components: { schemas: jsonAt(asyncapi, 'components', 'schemas') } });
  return ajv;
}

const compiled = new Map<number, ValidateFunction>();
const patterns = new Map<string, RegExp>();

function answer(ajv: Ajv2020, request: SandboxRequest): SandboxAnswer {
  if (request.kind === 'match') {
    const key = `${request.flags}/${request.pattern}`;
    let pattern = patterns.get(key);
    if (!pattern) patterns.set(key, (pattern = new RegExp(request.pattern, request.flags)));
    return { matches: pattern.test(request.text) };
  }
  let validate = compiled.get(request.schemaId);
  if (!validate) {
    if (request.schema === undefined) throw new Error(`schema ${request.schemaId} was never sent`);
    validate = ajv.compile(rebaseRefs(request.schema, `urn:conformance:${request.document}`) as object);
    compiled.set(request.schemaId, validate);
  }
  const valid = validate(request.value);
  const problems = (validate.errors ?? []).map(({ instancePath, message, params }) => ({ instancePath, message, params }));
  return { valid, problems };
}

function announce(which: number, value: number): void {
  Atomics.store(flags, which, value);
  Atomics.notify(flags, which);
}

try {
  const ajv = startValidation();
  port.on('message', (request: SandboxRequest) => {
    let reply: SandboxAnswer;
    try {
      reply = answer(ajv, request);
    } catch (error) {
      reply = { error: error instanceof Error ? error.message : String(error) };
    }
    port.postMessage({ ...reply, id: request.id });
    announce(signal.answer, 1);
  });
  announce(signal.ready, 1);
} catch (error) {
  port.postMessage({ error: `the specs' schemas cannot be loaded: ${error instanceof Error ? error.message : String(error)}` } satisfies SandboxAnswer);
  announce(signal.ready, 2);
}
