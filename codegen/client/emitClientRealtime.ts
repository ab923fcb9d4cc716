// client/src/generated/realtime/: what the client package's real-time half reads of the specs, the
// same text as generated/ writes (so the two cannot drift apart): the AsyncAPI payload types, the
// channel table (address templates, parameters, payloads), the STOMP path, the delivery guarantees
// (`delivery`, `channelDelivery`, `runEndOf`), the error code table, typed against the AsyncAPI
// types, and one function per operation of asyncapi.yaml. Each file imports only its neighbours and
// the runtime's types: the package is published without generated/.
import type { ChannelFact } from '../../conformance/specModel/index.js';
import { emitErrorCodes } from '../emitErrorCodes.js';
import type { ErrorCodeFact } from '../errorCodeModel.js';
import { emitClientChannelOperations } from './emitClientChannelOperations.js';

/** Files under client/src/generated/, from generated/'s `asyncapi-types.ts` and `asyncapi.ts` as codegen made them. */
export function emitClientRealtime(
  generated: { asyncapiTypes: string; asyncapiRegistry: string },
  channels: ChannelFact[],
  errorCodes: ErrorCodeFact[],
): Record<string, string> {
  return {
    'realtime/asyncapi-types.ts': generated.asyncapiTypes,
    'realtime/asyncapi.ts': generated.asyncapiRegistry,
    // The bundled AsyncAPI schemas hold ErrorCode too, so the code table needs no OpenAPI types here.
    'realtime/errorCodes.ts': emitErrorCodes(errorCodes, './asyncapi-types.js'),
    'realtime/operations.ts': emitClientChannelOperations(channels),
  };
}
