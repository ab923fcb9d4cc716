// The HTTP client of the client package against a real test server, with a record of every request
// it sent and the status the server answered (the fetch it uses is the global one, watched).
import { createHttpClient, type HttpClient, type HttpClientOptions, type TokenPair } from '../../client/src/index.js';
import type { TestServer } from '../support/testServer.js';

export interface SentRequest {
  method: string;
  /** path and query, e.g. /api/v1/trips?size=10 */
  target: string;
  /** the answer's status; null when no answer came */
  status: number | null;
}

export interface WatchedClient {
  client: HttpClient;
  sent: SentRequest[];
  /** every token pair the client was told of (onTokens) */
  issued: TokenPair[];
}

/** `inner` (the global fetch by default), each request and its answer's status written down in `sent`. */
export function watchedFetch(sent: SentRequest[], inner: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const request: SentRequest = { method: init?.method ?? 'GET', target: url.pathname + url.search, status: null };
    sent.push(request);
    const response = await inner(input, init);
    request.status = response.status;
    return response;
  };
}

export function watchedClient(baseUrl: string, options: Partial<HttpClientOptions> = {}): WatchedClient {
  const sent: SentRequest[] = [];
  const issued: TokenPair[] = [];
  const { fetch: inner, ...rest } = options;
  const client = createHttpClient({ baseUrl, onTokens: (pair) => issued.push(pair), ...rest, fetch: watchedFetch(sent, inner) });
  return { client, sent, issued };
}

/** A client signed in with dev-login through its own devLogin operation. */
export async function signedInClient(server: TestServer, email: string, options: Partial<HttpClientOptions> = {}): Promise<WatchedClient> {
  const watched = watchedClient(server.url, options);
  const login = await watched.client.operations.devLogin({ body: { email } });
  if (!login.ok) throw new Error(`dev-login failed: ${login.status} ${login.error?.code}`);
  return watched;
}
