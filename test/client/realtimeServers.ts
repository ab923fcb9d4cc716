// What the client's real-time tests share: a member's session whose access token can be reissued
// over the real HTTP API, callOperation on a server by operationId (the generated route table, as
// the HTTP half of the client does it), a WebSocket class that records the frames it received, and
// a wait that polls a condition (a loaded machine only makes it slower, never wrong).
import { expect } from 'vitest';
import WebSocket, { type RawData } from 'ws';
import { routes } from '../../generated/routes.js';
import type { OperationParameters, RealtimeOptions, WebSocketConstructor } from '../../client/src/realtime/index.js';
import type { TestApp } from '../support/testApp.js';
import { busanTrip } from '../support/testApp.js';
import { webSocketText } from '../support/webSocketText.js';

export { wsUrl } from '../support/stompTestClient.js';

type Server = Pick<TestApp, 'request' | 'signIn'>;

export interface Session {
  accessToken(): Promise<string>;
  reissue(): Promise<string>;
  /** how many times reissue() was called */
  readonly reissues: number;
  token(): string;
}

/** A member signed in on `server`; reissue() calls reissueToken with the refresh token and keeps the new pair. */
export async function sessionOn(server: Server, email: string, hooks: { beforeReissue?: () => Promise<void> } = {}): Promise<Session> {
  let tokens = await server.signIn(email);
  let reissues = 0;
  return {
    accessToken: () => Promise.resolve(tokens.accessToken),
    async reissue() {
      reissues++;
      await hooks.beforeReissue?.();
      const answer = await server.request<{ data: { accessToken: string; refreshToken: string } }>('POST', '/api/v1/auth/reissue', {
        body: { refreshToken: tokens.refreshToken },
      });
      if (answer.status !== 200) throw new Error(`reissueToken answered ${answer.status}: ${answer.text}`);
      tokens = answer.body.data;
      return tokens.accessToken;
    },
    get reissues() {
      return reissues;
    },
    token: () => tokens.accessToken,
  };
}

/** A new 3-day plan of the session's member. */
export async function planOf(server: Server, session: Session): Promise<{ tripPlanId: number; chatRoomId: number }> {
  const created = await server.request<{ data: { tripPlanId: number; chatRoomId: number } }>('POST', '/api/v1/trips', {
    token: session.token(),
    body: busanTrip,
  });
  if (created.status !== 201) throw new Error(`plan not created: ${created.status} ${created.text}`);
  return created.body.data;
}

/** Calls an operation of `server` by its operationId with path and query parameters, answering the envelope's data. */
export function operationCaller(server: Pick<TestApp, 'request'>, session: Session): RealtimeOptions['callOperation'] {
  return async (operationId: string, parameters: OperationParameters) => {
    const route = routes.find((r) => r.operationId === operationId);
    if (!route) throw new Error(`no operation ${operationId}`);
    const path = route.path.replace(/\{(\w+)\}/g, (_m, name: string) => String(parameters[name]));
    const query = Object.fromEntries(route.queryParams.filter((q) => q in parameters).map((q) => [q, parameters[q]!]));
    const answer = await server.request<{ data: unknown }>(route.method, path, { token: session.token(), query });
    if (answer.status >= 400) throw new Error(`${operationId} answered ${answer.status}`);
    return answer.body.data;
  };
}

/** Starts (or cancels) the plan's generation, as the HTTP half will. */
export async function startGeneration(
  server: Pick<TestApp, 'request'>,
  session: Session,
  tripPlanId: number,
  action: 'start' | 'cancel' = 'start',
): Promise<void> {
  const answer = await server.request('POST', `/api/v1/trips/${tripPlanId}${action === 'cancel' ? '/cancel' : ''}`, { token: session.token() });
  if (answer.status !== 200) throw new Error(`${action} answered ${answer.status}: ${answer.text}`);
}

/** The `ws` WebSocket (Node 20 has none of its own), recording the command of every frame it received. */
export function recordingWebSocket(): { WebSocket: WebSocketConstructor; commands: string[] } {
  const commands: string[] = [];
  class Recording extends WebSocket {
    constructor(url: string, protocols: string[]) {
      super(url, protocols);
      this.on('message', (data: RawData) => {
        const text = webSocketText(data);
        if (text.trim() !== '') commands.push(text.slice(0, text.indexOf('\n')));
      });
    }
  }
  return { WebSocket: Recording, commands };
}

/** Resolves once `condition` holds. */
export async function until(condition: () => boolean, what: string): Promise<void> {
  await expect.poll(condition, { timeout: 20_000, interval: 20, message: what }).toBe(true);
}
