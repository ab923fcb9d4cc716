// Everything codegen produces, as a map from path under generated/ to content. Pure apart from
// reading the specs, so tests can run it and compare with what is committed.
import YAML from 'yaml';
import { loadSpecFolder, readChannels, readDelivery, readMessages, readOperations } from '../conformance/specModel/index.js';
import { readErrorCodes } from './errorCodeModel.js';
import { checkErrorFrameCodes } from './errorFrameCodes.js';
import { emitAsyncapiRegistry } from './emitAsyncapiRegistry.js';
import { emitErrorCodes } from './emitErrorCodes.js';
import { emitOperationTypes } from './emitOperationTypes.js';
import { emitRouteTable } from './emitRouteTable.js';
import { emitSerializers } from './emitSerializers.js';
import { emitAsyncapiTypes, emitOpenapiTypes } from './emitTypes.js';
import { emitValidators } from './emitValidators.js';
import { emitClientHttp } from './client/emitClientHttp.js';
import { emitClientRealtime } from './client/emitClientRealtime.js';
import { GENERATED_HEADER } from './naming.js';
import { asyncapiPath, internalEventsPath, specsDir } from './specFiles.js';

export interface Generated {
  files: Record<string, string>;
  /** the parts of the client package, under client/src/generated/ */
  clientFiles: Record<string, string>;
  summary: { operations: number; channels: number; messages: number };
}

export async function generate(): Promise<Generated> {
  // internalEvents: events the service sends itself; types only (the worker and the HTTP side share them), never published.
  const { openapi, asyncapi, internalEvents } = loadSpecFolder(specsDir);
  if (!asyncapi || !internalEvents) throw new Error(`codegen needs ${asyncapiPath} and ${internalEventsPath}`);
  const operations = readOperations(openapi);
  const messages = readMessages(asyncapi);
  const channels = readChannels(asyncapi);
  const errorCodes = readErrorCodes(openapi);
  checkErrorFrameCodes(asyncapi, messages, errorCodes);
  const delivery = readDelivery(asyncapi);
  if (!delivery.facts) throw new Error(`asyncapi.yaml: x-delivery is malformed (npm run lint:spec):\n${delivery.problems.join('\n')}`);
  const openapiTypes = await emitOpenapiTypes(openapi);
  const files: Record<string, string> = {
    'openapi.ts': openapiTypes,
    'asyncapi-types.ts': await emitAsyncapiTypes(asyncapi),
    'internal-events-types.ts': await emitAsyncapiTypes(internalEvents),
    'operations.ts': emitOperationTypes(openapi, operations),
    'routes.ts': emitRouteTable(operations),
    'serializers.ts': emitSerializers(openapi, operations),
    'errorCodes.ts': emitErrorCodes(errorCodes),
    'asyncapi.ts': emitAsyncapiRegistry(asyncapi, channels, messages, delivery.facts),
    // Self-contained copy of asyncapi.yaml (cross-file refs inlined): served at /asyncapi.yaml and
    // the input of any AsyncAPI tool that cannot follow relative refs.
    'asyncapi.bundled.yaml': `# ${GENERATED_HEADER.slice(3)}${YAML.stringify(asyncapi, { lineWidth: 0, aliasDuplicateObjects: false })}`,
    ...emitValidators(openapi, operations, asyncapi, messages).files,
  };
  const clientFiles = {
    ...emitClientHttp(openapi, operations, errorCodes, openapiTypes),
    ...emitClientRealtime({ asyncapiTypes: files['asyncapi-types.ts']!, asyncapiRegistry: files['asyncapi.ts']! }, channels, errorCodes),
  };
  return { files, clientFiles, summary: { operations: operations.length, channels: channels.length, messages: messages.length } };
}
