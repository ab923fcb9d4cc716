// An independent check of responses: openapi-backend's validateResponse, which assembles the response
// schemas from the spec its own way. Its default Ajv speaks draft-07; the spec is OpenAPI 3.1
// (JSON Schema 2020-12: unevaluatedProperties, type arrays), so it is handed a 2020 engine.
// Its dereferencing, operation lookup and response-schema selection stay its own.
import fs from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { OpenAPIBackend, type Document } from 'openapi-backend';
import YAML from 'yaml';
import { addSpecFormats } from '../../conformance/specModel/index.js';

export interface SecondOpinion {
  validate(operationId: string, status: number, body: unknown): string[];
}

export async function createSecondOpinion(): Promise<SecondOpinion> {
  // An OpenAPI 3.1 document (Spectral and the spec tests check it).
  const definition = YAML.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../specs/openapi.yaml'), 'utf8')) as Document;
  const api = new OpenAPIBackend({
    definition,
    // quick: skip openapi-backend's definition check, which knows OpenAPI 3.0 only and rejects
    // 3.1 documents (Spectral and the spec tests check ours); it still dereferences and validates.
    quick: true,
    strict: false,
    validate: true,
    customizeAjv: (_draft07: unknown, options: object) => {
      const ajv = new Ajv2020({ ...options, strict: false, allowUnionTypes: true });
      addSpecFormats(ajv);
      return ajv;
    },
  });
  await api.init();
  return {
    validate(operationId, status, body) {
      const result = api.validateResponse(body, operationId, status);
      return result.valid ? [] : (result.errors ?? []).map((e: { instancePath: string; message?: string }) => `${e.instancePath} ${e.message}`);
    },
  };
}
