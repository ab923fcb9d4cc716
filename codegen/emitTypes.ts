// TypeScript types of every schema and operation, by openapi-typescript. The AsyncAPI schemas go
// through the same generator by wrapping the bundled document's schemas in a minimal OpenAPI document.
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { jsonAt, objectOrEmpty, stringOrUndefined, type JsonObject } from '../conformance/specModel/index.js';
import { GENERATED_HEADER } from './naming.js';

const options = { alphabetize: false, exportType: false, defaultNonNullable: true } as const;

export async function emitOpenapiTypes(openapi: JsonObject): Promise<string> {
  // An OpenAPI document: lint:spec (Spectral) checks it, openapi-typescript reads it.
  return GENERATED_HEADER + astToString(await openapiTS(structuredClone(openapi) as unknown as OpenAPI3, options));
}

export async function emitAsyncapiTypes(asyncapi: JsonObject): Promise<string> {
  const wrapper = {
    openapi: '3.1.0',
    info: {
      title: `${stringOrUndefined(jsonAt(asyncapi, 'info', 'title')) ?? 'AsyncAPI'} (schemas)`,
      version: stringOrUndefined(jsonAt(asyncapi, 'info', 'version')) ?? '0.0.0',
    },
    paths: {},
    components: { schemas: structuredClone(objectOrEmpty(jsonAt(asyncapi, 'components', 'schemas'))) },
  };
  // The schemas of an AsyncAPI document are JSON Schema, as OpenAPI 3.1's are.
  return GENERATED_HEADER + astToString(await openapiTS(wrapper as unknown as OpenAPI3, options));
}
