// createTripClient(): the two halves bound together, so a client team holds one object. The real
// time half refetches through the HTTP half (with its token and its reissue), and generate() starts
// and cancels the run with the plan's operations, so the order of calls cannot be got wrong.
import { stompServerPath } from './generated/realtime/asyncapi.js';
import { createHttpClient, type HttpClient, type HttpClientOptions } from './http/httpClient.js';
import { OperationFailedError } from './http/operationFailedError.js';
import type { OperationId, OperationInputs, OperationResults } from './generated/http/operations.js';
import { connectRealtime } from './realtime/connectRealtime.js';
import { generate, type GenerationHandlers, type GenerationIds, type GenerationOutcome } from './realtime/generate.js';
import type { OperationParameters, RealtimeConnection, WebSocketConstructor } from './realtime/realtimeTypes.js';

export interface TripClientOptions extends HttpClientOptions {
  /** the WebSocket class; default globalThis.WebSocket (Node 20 has none: pass the `ws` package's) */
  webSocket?: WebSocketConstructor;
  /** where STOMP is served; default the baseUrl's origin with ws(s):// and asyncapi.yaml's path. A function is asked again before every reconnect. */
  webSocketUrl?: string | (() => string);
  /** between reconnect attempts; default 1000 */
  reconnectDelayMs?: number;
  /** STOMP heart-beats both ways; 0 turns them off; default 10000 */
  heartbeatMs?: number;
  /** more headers for every CONNECT, e.g. the mock's `x-mock-fault` */
  connectHeaders?: Readonly<Record<string, string>>;
}

export interface TripClient extends HttpClient {
  /** the STOMP connection, opened on first use and kept (it reconnects and resumes by itself) */
  realtime(): Promise<RealtimeConnection>;
  /** one generation of a created plan: subscribes, waits for the RECEIPTs, starts, resolves with how the run ended; aborting `signal` cancels it */
  generate(ids: GenerationIds, handlers?: GenerationHandlers): Promise<GenerationOutcome>;
  /** closes the STOMP connection, if open */
  close(): Promise<void>;
}

/** ws(s):// + host of `baseUrl` + the STOMP path of asyncapi.yaml. */
export function webSocketUrlOf(baseUrl: string): string {
  const url = new URL(baseUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.pathname = `${url.pathname.replace(/\/$/, '')}${stompServerPath}`;
  url.search = '';
  return url.toString();
}

async function succeeded<K extends OperationId>(operationId: K, answer: Promise<OperationResults[K]>): Promise<OperationResults[K]> {
  const result = await answer;
  if (!result.ok) throw new OperationFailedError(operationId, result);
  return result;
}

export function createTripClient(options: TripClientOptions): TripClient {
  const http = createHttpClient(options);
  let connection: Promise<RealtimeConnection> | null = null;
  // The operations that rebuild a log's state (x-delivery's rebuildWith) take the ids of the
  // subscription as path parameters; which operations they are is data of the spec, so the call
  // is by id, typed at the boundary.
  const callOperation = (operationId: string, parameters: OperationParameters) =>
    http.call(operationId as OperationId, { path: parameters } as unknown as OperationInputs[OperationId]);
  const realtime = () =>
    (connection ??= connectRealtime({
      url: options.webSocketUrl ?? webSocketUrlOf(options.baseUrl),
      ...(options.webSocket ? { webSocket: options.webSocket } : {}),
      ...(options.reconnectDelayMs === undefined ? {} : { reconnectDelayMs: options.reconnectDelayMs }),
      ...(options.heartbeatMs === undefined ? {} : { heartbeatMs: options.heartbeatMs }),
      ...(options.connectHeaders ? { connectHeaders: options.connectHeaders } : {}),
      accessToken: () => http.accessToken(),
      reissue: () => http.reissue(),
      callOperation,
    }).catch((error: unknown) => {
      connection = null; // the next call tries again
      throw error;
    }));
  return {
    ...http,
    realtime,
    async generate(ids, handlers) {
      const path = { tripPlanId: Number(ids.tripPlanId) };
      return generate(
        await realtime(),
        ids,
        {
          start: () => succeeded('startTripPlanGeneration', http.operations.startTripPlanGeneration({ path })),
          cancel: () => succeeded('cancelTripPlanGeneration', http.operations.cancelTripPlanGeneration({ path })),
        },
        handlers,
      );
    },
    async close() {
      const open = connection;
      connection = null;
      if (open) await (await open).close();
    },
  };
}
