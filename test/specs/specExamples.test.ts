// Every example in both specs validates against its own schema, checked with the very validators
// codegen produced (Spectral alone misses examples under allOf/unevaluatedProperties and in
// AsyncAPI messages).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { addSpecFormats, bundle, readMessages, readOperations, readYaml, rebaseRefs } from '../../conformance/specModel/index.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { messageHeaderValidators, messageValidators, operationValidators, schemaValidators, type ValidateFunction } from '../../generated/validators.js';
import type { OperationId } from '../../generated/operations.js';
import { valueAtPointer } from '../../src/text/jsonPointer.js';

const specs = path.resolve(import.meta.dirname, '../../specs');
const openapi = readYaml(path.join(specs, 'openapi.yaml'));
const asyncapi = bundle(path.join(specs, 'asyncapi.yaml'));
const internalEvents = bundle(path.join(specs, 'internal', 'events.asyncapi.yaml'));
const operations = readOperations(openapi);

function check(validate: ValidateFunction, value: unknown): string[] {
  const ok = validate(structuredClone(value));
  return ok ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
}

type Case = [string, ValidateFunction, unknown];

const requestBodyCases: Case[] = operations.flatMap((op) =>
  (op.body?.examples ?? []).map((ex): Case => [`${op.operationId} body "${ex.name}"`, operationValidators[op.operationId as OperationId].body!, ex.value]),
);
const responseCases: Case[] = operations.flatMap((op) =>
  op.responses.flatMap((r) =>
    r.examples.map((ex): Case => [`${op.operationId} ${r.status} "${ex.name}"`, operationValidators[op.operationId as OperationId].responses[r.status]!, ex.value]),
  ),
);
const parameterCases: Case[] = operations
  .filter((op) => op.parameters.length > 0)
  .map((op): Case => {
    const paramsSpec = (openapi.paths as any)[op.path];
    const raw = [...(paramsSpec.parameters ?? []), ...(paramsSpec[op.method].parameters ?? [])].map((p: any) =>
      p.$ref ? valueAtPointer(openapi, p.$ref) : p,
    );
    // A parameter may have no example (e.g. cursor: no fixed value is valid for every caller).
    const group = (where: string) => Object.fromEntries(raw.filter((p: any) => p.in === where && p.example !== undefined).map((p: any) => [p.name, String(p.example)]));
    return [`${op.operationId} parameters`, operationValidators[op.operationId as OperationId].params, { path: group('path'), query: group('query') }];
  });
const schemaCases = (doc: any, validators: Record<string, ValidateFunction>): Case[] =>
  Object.entries<any>(doc.components.schemas).flatMap(([name, schema]) =>
    (schema.examples ?? []).map((value: unknown, i: number): Case => [`schema ${name} example ${i + 1}`, validators[name]!, value]),
  );
const messageCases: Case[] = readMessages(asyncapi).flatMap((m) =>
  m.examples.flatMap((ex): Case[] => [
    ...(m.payload ? [[`message ${m.name} "${ex.name}" payload`, (messageValidators as Record<string, ValidateFunction>)[m.name]!, ex.payload] as Case] : []),
    ...(m.headers ? [[`message ${m.name} "${ex.name}" headers`, (messageHeaderValidators as Record<string, ValidateFunction>)[m.name]!, ex.headers] as Case] : []),
  ]),
);
// The internal document has no generated validators (nothing validates its events at run time).
function internalValidator(schema: unknown): ValidateFunction {
  const ajv = addSpecFormats(new Ajv2020({ strict: false, allErrors: true }));
  ajv.addSchema({ $id: 'urn:spec:internal-events', components: internalEvents.components });
  return ajv.compile(rebaseRefs(schema, 'urn:spec:internal-events') as object);
}
const internalMessageCases: Case[] = readMessages(internalEvents, { overStomp: false }).flatMap((m) =>
  m.examples.map((ex): Case => [`internal message ${m.name} "${ex.name}"`, internalValidator(m.payload), ex.payload]),
);

describe('openapi.yaml examples', () => {
  it('has an example for every request body and every response', () => {
    const missing = [
      ...operations.filter((op) => op.body && op.body.examples.length === 0).map((op) => `${op.operationId} body`),
      ...operations.flatMap((op) => op.responses.filter((r) => r.contentType && r.examples.length === 0).map((r) => `${op.operationId} ${r.status}`)),
    ];
    expect(missing).toEqual([]);
  });
  it.each(requestBodyCases)('%s is valid', (_name, validate, value) => expect(check(validate, value)).toEqual([]));
  it.each(responseCases)('%s is valid', (_name, validate, value) => expect(check(validate, value)).toEqual([]));
  it.each(parameterCases)('%s are valid', (_name, validate, value) => expect(check(validate, value)).toEqual([]));
  it.each(schemaCases(openapi, schemaValidators.openapi))('%s is valid', (_name, validate, value) => expect(check(validate, value)).toEqual([]));
});

describe('asyncapi.yaml examples', () => {
  it('has an example for every message', () => {
    expect(readMessages(asyncapi).filter((m) => m.examples.length === 0).map((m) => m.name)).toEqual([]);
  });
  it('has headers in every example of a message that declares headers, and a payload where it has one', () => {
    const incomplete = readMessages(asyncapi).flatMap((m) =>
      m.examples.filter((ex) => (m.headers && ex.headers === undefined) || (m.payload && ex.payload === undefined)).map((ex) => `${m.name} "${ex.name}"`),
    );
    expect(incomplete).toEqual([]);
  });
  it.each(messageCases)('%s is valid', (_name, validate, value) => expect(check(validate, value)).toEqual([]));
  it.each(schemaCases(asyncapi, schemaValidators.asyncapi))('%s is valid', (_name, validate, value) => expect(check(validate, value)).toEqual([]));
});

describe('internal/events.asyncapi.yaml examples', () => {
  it('has an example for every message', () => {
    expect(readMessages(internalEvents, { overStomp: false }).filter((m) => m.examples.length === 0).map((m) => m.name)).toEqual([]);
  });
  it.each(internalMessageCases)('%s is valid', (_name, validate, value) => expect(check(validate, value)).toEqual([]));
});

describe('the example check itself', () => {
  it('rejects a broken copy of an example', () => {
    const [, validate, value] = responseCases.find(([name]) => name.startsWith('getTripPlan 200'))!;
    const broken = structuredClone(value) as { data: Record<string, unknown> };
    delete broken.data.title;
    broken.data.nickname = 'x';
    expect(check(validate, broken)).toEqual(expect.arrayContaining([expect.stringContaining("must have required property 'title'")]));
    expect(check(validate, broken).join()).toMatch(/unevaluated|additional/);
  });
});
