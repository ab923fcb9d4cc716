// openapi-backend set up as a mock of specs/openapi.yaml: every operation is "not implemented", so
// every matched request is answered from the spec's examples.
//
// OpenAPI 3.1 and openapi-backend 5.21.2:
// * init() checks the document with openapi-schema-validator, which only knows the OpenAPI 3.0
//   meta-schema: this 3.1 document fails with 366 errors (`info.summary`, `license.identifier`,
//   `examples` arrays in schemas, `$ref` with siblings...). Without `strict` that failure is only
//   console.warn'ed and init() goes on with NO operations, so every request would 404. `quick: true`
//   skips that check (Spectral and the spec tests check ours), as in test/support/secondOpinion.ts;
//   `strict: true` makes anything else that fails in init() stop the mock instead of serving nothing.
// * Request validation uses Ajv's draft-07 class, which ignores `unevaluatedProperties` (our closed
//   allOf envelopes); compiled eagerly, its cycle-breaking copy of the dereferenced schemas even turns
//   shared `examples` arrays into `{$ref}` objects that Ajv rejects ("examples must be array"). The
//   mock needs no request validation, so `validate: false`.
import fs from 'node:fs';
import { OpenAPIBackend, type Document } from 'openapi-backend';
import YAML from 'yaml';
import { mockResponse } from './mockResponse.js';
import { parsePrefer } from './preferHeader.js';
import { methodNotAllowed, routeNotFound } from './routeErrors.js';

const methods = ['GET', 'PUT', 'POST', 'DELETE', 'PATCH'];

export async function createMockBackend(specFile: string): Promise<OpenAPIBackend> {
  const definition = YAML.parse(fs.readFileSync(specFile, 'utf8')) as Document;
  const api = new OpenAPIBackend({ definition, quick: true, strict: true, validate: false });
  await api.init();
  // The mock takes any caller as signed in; `Prefer: code=401` shows the error a client would get.
  api.registerSecurityHandler('bearerAuth', () => true);
  api.register({
    notImplemented: (context) => mockResponse(api, context.operation, parsePrefer(context.request.headers['prefer'] as string | undefined)),
    notFound: (context) => routeNotFound(context.request.method.toUpperCase(), context.request.path),
    methodNotAllowed: (context) => {
      const { path } = context.request;
      const allow = methods.filter((method) => api.matchOperation({ method, path, headers: {} }) !== undefined);
      return methodNotAllowed(context.request.method.toUpperCase(), path, allow);
    },
  });
  return api;
}
