// openapi-backend over our OpenAPI 3.1 document: its default Ajv speaks draft-07, the spec is JSON
// Schema 2020-12 (unevaluatedProperties, type arrays), so it is handed a 2020 engine with the
// spec's formats; `quick` skips its definition check, which knows OpenAPI 3.0 only and rejects 3.1
// documents (Spectral and the spec tests check ours); it still dereferences, routes and validates.
// The bench's Hono + openapi-backend peer and the contract tests' second opinion both use it.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { OpenAPIBackend, type Document } from 'openapi-backend';
import { addSpecFormats } from '../../conformance/specModel/index.js';

export function openapiBackend31(definition: Document): OpenAPIBackend {
  return new OpenAPIBackend({
    definition,
    quick: true,
    strict: false,
    validate: true,
    customizeAjv: (_draft07: unknown, options: object) => {
      const ajv = new Ajv2020({ ...options, strict: false, allowUnionTypes: true });
      addSpecFormats(ajv);
      return ajv;
    },
  });
}
