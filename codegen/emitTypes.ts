// TypeScript types of every schema and operation, by openapi-typescript. The AsyncAPI schemas go
// through the same generator by wrapping the bundled document's schemas in a minimal OpenAPI document.
import openapiTS, { astToString } from 'openapi-typescript';
import { GENERATED_HEADER } from './naming.js';

type Json = any;

const options = { alphabetize: false, exportType: false, defaultNonNullable: true } as const;

export async function emitOpenapiTypes(openapi: Json): Promise<string> {
  return GENERATED_HEADER + astToString(await openapiTS(structuredClone(openapi), options));
}

export async function emitAsyncapiTypes(asyncapi: Json): Promise<string> {
  const wrapper = {
    openapi: '3.1.0',
    info: { title: `${asyncapi.info?.title ?? 'AsyncAPI'} (schemas)`, version: asyncapi.info?.version ?? '0.0.0' },
    paths: {},
    components: { schemas: structuredClone(asyncapi.components?.schemas ?? {}) },
  };
  return GENERATED_HEADER + astToString(await openapiTS(wrapper, options));
}
