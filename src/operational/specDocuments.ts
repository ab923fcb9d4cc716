// The documents served to clients: openapi.yaml as written (it is self-contained) and the bundled,
// self-contained copy of asyncapi.yaml that codegen writes. Read once at start, and parsed, by the
// spec model every other reader of the specs uses, when first asked for (not at start: a parse
// costs more than everything else the docs need).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseYaml, specFolderFiles, type JsonObject } from '../../conformance/specModel/index.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface SpecDocuments {
  openapiYaml: string;
  openapi: JsonObject;
  asyncapiYaml: string;
  asyncapi: JsonObject;
}

export function loadSpecDocuments(): SpecDocuments {
  const openapiYaml = fs.readFileSync(specFolderFiles(path.join(root, 'specs')).openapi, 'utf8');
  const asyncapiYaml = fs.readFileSync(path.join(root, 'generated', 'asyncapi.bundled.yaml'), 'utf8');
  let openapi: JsonObject | undefined;
  let asyncapi: JsonObject | undefined;
  return {
    openapiYaml,
    asyncapiYaml,
    get openapi() {
      return (openapi ??= parseYaml(openapiYaml));
    },
    get asyncapi() {
      return (asyncapi ??= parseYaml(asyncapiYaml));
    },
  };
}
