// An independent check of responses: openapi-backend's validateResponse, which assembles the response
// schemas from the spec its own way (with a JSON Schema 2020-12 Ajv for our OpenAPI 3.1 document,
// openapiBackend31.ts). Its dereferencing, operation lookup and response-schema
// selection stay its own.
import fs from 'node:fs';
import path from 'node:path';
import type { Document } from 'openapi-backend';
import YAML from 'yaml';
import { openapiBackend31 } from './openapiBackend31.js';

export interface SecondOpinion {
  validate(operationId: string, status: number, body: unknown): string[];
}

export async function createSecondOpinion(): Promise<SecondOpinion> {
  // An OpenAPI 3.1 document (Spectral and the spec tests check it).
  const definition = YAML.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../specs/openapi.yaml'), 'utf8')) as Document;
  const api = openapiBackend31(definition);
  await api.init();
  return {
    validate(operationId, status, body) {
      const result = api.validateResponse(body, operationId, status);
      return result.valid ? [] : (result.errors ?? []).map((e: { instancePath: string; message?: string }) => `${e.instancePath} ${e.message}`);
    },
  };
}
