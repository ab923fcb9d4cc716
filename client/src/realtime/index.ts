// The real-time half of the client: connectRealtime() and generate(), and their types.
export { connectRealtime } from './connectRealtime.js';
export { generate, type GenerationCalls, type GenerationHandlers, type GenerationIds, type GenerationOutcome } from './generate.js';
export {
  RealtimeError,
  type ChannelContinuityLost,
  type ChannelParameters,
  type ChannelPayloads,
  type ContinuityLostEvent,
  type ContinuityReason,
  type LogName,
  type OperationParameters,
  type Position,
  type RealtimeConnection,
  type RealtimeEvents,
  type RealtimeOptions,
  type RealtimeSubscription,
  type ReceivableChannel,
  type RebuildOperation,
  type RefetchResult,
  type SendableChannel,
  type SubscribeOptions,
  type SubscriptionHandler,
  type WebSocketConstructor,
  type WebSocketLike,
} from './realtimeTypes.js';
export * from '../generated/realtime/operations.js';
