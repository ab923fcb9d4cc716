// Ahead-of-time compiled validators (Ajv 2020 + formats, standalone ESM code), so the server never
// compiles a schema at start-up. Four Ajv instances, because options are per instance:
//   params    path + query of every operation; coerces strings and applies defaults
//   bodies    request bodies; applies defaults, never coerces
//   guards    the size guards of params and bodies (sizeGuardSchema.ts), run before the above
//   contracts response bodies, STOMP payloads and every named schema; neither coerces nor defaults
import type { AnySchema } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import standaloneModule from 'ajv/dist/standalone/index.js';
import { errorCodeKeywords } from './errorCodeModel.js';
import { GENERATED_HEADER, propertyKey, validatorName } from './naming.js';
import { sizeGuardComponents, sizeGuardSchema } from './sizeGuardSchema.js';
import {
  addSpecFormats,
  objectOrEmpty,
  rebaseRefs,
  type AsyncMessageFact,
  type Json,
  type JsonObject,
  type OperationFact,
} from '../conformance/specModel/index.js';

// A CommonJS module whose `exports.default` is the function; NodeNext types see the module object.
const standaloneCode = standaloneModule.default;

export interface ValidatorSources {
  files: Record<string, string>; // path under generated/ -> content
}

// Absolute ids of the two documents' schema roots (relative ids would resolve against each other).
const OPENAPI = 'urn:spec:openapi';
const ASYNCAPI = 'urn:spec:asyncapi';

// Keywords of OpenAPI/AsyncAPI, and our own extensions, that are annotations for JSON Schema.
const annotationKeywords = ['components', 'discriminator', 'xml', 'externalDocs', 'example', 'x-parser-schema-id', ...errorCodeKeywords];

function newAjv(options: { coerceTypes?: boolean; useDefaults?: boolean; strictTypes?: boolean }): Ajv2020 {
  const ajv = new Ajv2020({
    strict: true,
    allErrors: true,
    allowUnionTypes: true,
    // Shared schemas compile to one function each instead of being inlined at every use: the
    // contracts file would otherwise grow past 1 MB.
    inlineRefs: false,
    code: { source: true, esm: true, lines: false },
    ...options,
  });
  addSpecFormats(ajv);
  for (const keyword of annotationKeywords) ajv.addKeyword({ keyword });
  return ajv;
}

/**
 * Ajv's standalone output `require`s its runtime helpers and formats. Those are CommonJS modules
 * with `__esModule` set, which Node and Vite import differently (`default` is `module.exports` for
 * one and `exports.default` for the other), so the ESM file keeps real `require` calls.
 */
function toEsm(code: string): string {
  const body = code.replace(/^"use strict";/, '');
  return `${GENERATED_HEADER}/* eslint-disable */\nimport { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\n${body}\n`;
}

function declarations(names: string[]): string {
  return `${GENERATED_HEADER}import type { ValidateFunction } from 'ajv';\n\n${names
    .map((name) => `export declare const ${name}: ValidateFunction;`)
    .join('\n')}\n`;
}

function standalone(ajv: Ajv2020, exports: Record<string, string>, file: string, files: Record<string, string>): void {
  const sorted = Object.fromEntries(Object.entries(exports).sort(([a], [b]) => a.localeCompare(b)));
  files[`${file}.js`] = toEsm(standaloneCode(ajv, sorted));
  files[`${file}.d.ts`] = declarations(Object.keys(sorted));
}

/** `{ path, query }` of one operation as one object schema, refs rebased onto the openapi root. */
function paramsSchema(op: OperationFact): JsonObject {
  const group = (location: 'path' | 'query') => {
    const list = op.parameters.filter((p) => p.in === location);
    return {
      type: 'object',
      properties: Object.fromEntries(list.map((p) => [p.name, rebaseRefs(p.schema, OPENAPI)])),
      required: list.filter((p) => p.required).map((p) => p.name),
    };
  };
  return { type: 'object', properties: { path: group('path'), query: group('query') }, required: ['path', 'query'] };
}

/** A schema registered under an id; a boolean schema has no keywords to keep. */
const withId = (id: string, schema: Json | undefined): AnySchema => ({ $id: id, ...objectOrEmpty(schema) });

const schemasOf = (doc: JsonObject): JsonObject => objectOrEmpty(objectOrEmpty(doc.components).schemas);

export function emitValidators(openapi: JsonObject, operations: OperationFact[], asyncapi: JsonObject, messages: AsyncMessageFact[]): ValidatorSources {
  const files: Record<string, string> = {};
  const root = (ajv: Ajv2020, id: string, doc: JsonObject) => ajv.addSchema({ $id: id, components: { schemas: schemasOf(doc) } });

  // params
  const params = newAjv({ coerceTypes: true, useDefaults: true });
  root(params, OPENAPI, openapi);
  const paramExports: Record<string, string> = {};
  for (const op of operations) {
    // The one header parameter, X-Request-Id, is never an error: requestLogging replaces an invalid
    // one (components.parameters.RequestId). Any other would go unchecked, so it must come here first.
    const header = op.parameters.find((p) => p.in === 'header' && p.name.toLowerCase() !== 'x-request-id');
    if (header) throw new Error(`${op.operationId}: header parameter ${header.name} is not validated by the router; add it to the params validators`);
    params.addSchema(withId(`urn:params:${op.operationId}`, paramsSchema(op)));
    paramExports[validatorName(op.operationId, 'params')] = `urn:params:${op.operationId}`;
  }
  standalone(params, paramExports, 'validators/params', files);

  // bodies
  const bodies = newAjv({ useDefaults: true });
  root(bodies, OPENAPI, openapi);
  const bodyExports: Record<string, string> = {};
  for (const op of operations) {
    if (!op.body) continue;
    const id = `urn:body:${op.operationId}`;
    bodies.addSchema(withId(id, rebaseRefs(op.body.schema, OPENAPI)));
    bodyExports[validatorName(op.operationId, 'body')] = id;
  }
  standalone(bodies, bodyExports, 'validators/bodies', files);

  // guards: only the size limits of the same schemas. The guard of a type-specific keyword has no
  // `type` next to it any more (maxLength applies to strings only), hence strictTypes off.
  const guards = newAjv({ strictTypes: false });
  guards.addSchema({ $id: OPENAPI, components: { schemas: sizeGuardComponents(schemasOf(openapi)) } });
  const guardExports: Record<string, string> = {};
  for (const op of operations) {
    const paramsId = `urn:guard:params:${op.operationId}`;
    guards.addSchema(withId(paramsId, sizeGuardSchema(paramsSchema(op))));
    guardExports[validatorName(op.operationId, 'params', 'size', 'guard')] = paramsId;
    if (!op.body) continue;
    const bodyId = `urn:guard:body:${op.operationId}`;
    guards.addSchema(withId(bodyId, sizeGuardSchema(rebaseRefs(op.body.schema, OPENAPI))));
    guardExports[validatorName(op.operationId, 'body', 'size', 'guard')] = bodyId;
  }
  standalone(guards, guardExports, 'validators/guards', files);

  // contracts: responses, messages and every named schema of both documents
  const contracts = newAjv({});
  root(contracts, OPENAPI, openapi);
  root(contracts, ASYNCAPI, asyncapi);
  const contractExports: Record<string, string> = {};
  for (const op of operations) {
    for (const response of op.responses) {
      // A named schema already has its validator (below); only inline schemas need their own.
      if (!response.schema || response.schemaName) continue;
      const id = `urn:response:${op.operationId}:${response.status}`;
      contracts.addSchema(withId(id, rebaseRefs(response.schema, OPENAPI)));
      contractExports[validatorName(op.operationId, 'response', response.status)] = id;
    }
  }
  for (const message of messages) {
    if (message.payload) {
      const id = `urn:message:${message.name}`;
      contracts.addSchema(withId(id, rebaseRefs(message.payload, ASYNCAPI)));
      contractExports[validatorName('message', message.name)] = id;
    }
    if (message.headers) {
      const id = `urn:message-headers:${message.name}`;
      contracts.addSchema(withId(id, rebaseRefs(message.headers, ASYNCAPI)));
      contractExports[validatorName('message', message.name, 'headers')] = id;
    }
  }
  for (const [prefix, base, doc] of [
    ['openapi', OPENAPI, openapi],
    ['asyncapi', ASYNCAPI, asyncapi],
  ] as const) {
    for (const name of Object.keys(schemasOf(doc))) {
      contractExports[validatorName(prefix, 'schema', name)] = `${base}#/components/schemas/${name}`;
    }
  }
  standalone(contracts, contractExports, 'validators/contracts', files);

  // The typed index the server imports.
  files['validators.ts'] = `${GENERATED_HEADER}
import type { ValidateFunction } from 'ajv';
import type { OperationId } from './operations.js';
import * as params from './validators/params.js';
import * as bodies from './validators/bodies.js';
import * as contracts from './validators/contracts.js';
import * as guards from './validators/guards.js';

export type { ValidateFunction };

export interface OperationValidators {
  /** validates \`{ path, query }\` (strings coerced, defaults applied in place) */
  readonly params: ValidateFunction;
  /** validates the JSON body (defaults applied in place); null when the operation takes none */
  readonly body: ValidateFunction | null;
  /**
   * Only the size limits (maxLength, maxItems, maxProperties) of params and body: run first, so an
   * oversized value is refused after linear work, before uniqueItems, patterns and formats.
   */
  readonly sizeGuards: { readonly params: ValidateFunction; readonly body: ValidateFunction | null };
  /** validates the whole response body (the envelope) per documented status with a schema */
  readonly responses: Readonly<Record<number, ValidateFunction>>;
}

export const operationValidators: Readonly<Record<OperationId, OperationValidators>> = {
${operations
  .map((op) => {
    const responses = op.responses
      .filter((r) => r.schema)
      .map(
        (r) =>
          `${r.status}: contracts.${r.schemaName ? validatorName('openapi', 'schema', r.schemaName) : validatorName(op.operationId, 'response', r.status)}`,
      )
      .join(', ');
    const body = op.body ? `bodies.${validatorName(op.operationId, 'body')}` : 'null';
    const bodyGuard = op.body ? `guards.${validatorName(op.operationId, 'body', 'size', 'guard')}` : 'null';
    const sizeGuards = `{ params: guards.${validatorName(op.operationId, 'params', 'size', 'guard')}, body: ${bodyGuard} }`;
    return `  ${op.operationId}: { params: params.${validatorName(op.operationId, 'params')}, body: ${body}, sizeGuards: ${sizeGuards}, responses: { ${responses} } },`;
  })
  .join('\n')}
};

/** STOMP message payload validators by message name (asyncapi.yaml); frames without a body have none. */
export const messageValidators = {
${messages
  .filter((m) => m.payload)
  .map((m) => `  ${propertyKey(m.name)}: contracts.${validatorName('message', m.name)},`)
  .join('\n')}
} as const satisfies Record<string, ValidateFunction>;

/** STOMP frame header validators by message name (asyncapi.yaml): the headers of the frame that carries the message. */
export const messageHeaderValidators = {
${messages
  .filter((m) => m.headers)
  .map((m) => `  ${propertyKey(m.name)}: contracts.${validatorName('message', m.name, 'headers')},`)
  .join('\n')}
} as const satisfies Record<string, ValidateFunction>;

/** Every named schema of both documents, e.g. for checking examples. */
export const schemaValidators = {
  openapi: {
${Object.keys(schemasOf(openapi))
  .map((n) => `    ${propertyKey(n)}: contracts.${validatorName('openapi', 'schema', n)},`)
  .join('\n')}
  },
  asyncapi: {
${Object.keys(schemasOf(asyncapi))
  .map((n) => `    ${propertyKey(n)}: contracts.${validatorName('asyncapi', 'schema', n)},`)
  .join('\n')}
  },
} as const satisfies Record<string, Record<string, ValidateFunction>>;
`;
  return { files };
}
