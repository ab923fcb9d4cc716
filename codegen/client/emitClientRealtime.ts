// client/src/generated/realtime/: what the client package's real-time half reads of the specs, by
// the same emitters as generated/ (so the two cannot drift apart): the AsyncAPI payload types, the
// channel table (address templates, parameters, payloads), the STOMP path, the delivery guarantees
// (`delivery`, `channelDelivery`, `runEndOf`) and the error code table, typed against the AsyncAPI
// types. Each file imports only its neighbours: the package is published without generated/.
import path from 'node:path';
import { loadSpecFolder, readChannels, readDelivery, readMessages } from '../../conformance/specModel/index.js';
import { emitAsyncapiRegistry } from '../emitAsyncapiRegistry.js';
import { emitErrorCodes } from '../emitErrorCodes.js';
import { readErrorCodes } from '../errorCodeModel.js';
import { emitAsyncapiTypes } from '../emitTypes.js';
import { repoRoot, specsDir } from '../specFiles.js';

export const clientRealtimeDir = path.join(repoRoot, 'client', 'src', 'generated', 'realtime');

/** Every file of client/src/generated/realtime/, by its name there. */
export async function emitClientRealtime(): Promise<Record<string, string>> {
  const { openapi, asyncapi } = loadSpecFolder(specsDir);
  if (!asyncapi) throw new Error('the client needs specs/asyncapi.yaml');
  const delivery = readDelivery(asyncapi);
  if (!delivery.facts) throw new Error(`asyncapi.yaml: x-delivery is malformed (npm run lint:spec):\n${delivery.problems.join('\n')}`);
  return {
    'asyncapi-types.ts': await emitAsyncapiTypes(asyncapi),
    'asyncapi.ts': emitAsyncapiRegistry(asyncapi, readChannels(asyncapi), readMessages(asyncapi), delivery.facts),
    // The bundled AsyncAPI schemas hold ErrorCode too, so the code table needs no OpenAPI types here.
    'errorCodes.ts': emitErrorCodes(readErrorCodes(openapi), './asyncapi-types.js'),
  };
}
