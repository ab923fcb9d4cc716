// The mutating proxy: a reverse proxy in front of a server under test that hands every HTTP request
// and response, and every STOMP frame of the WebSocket at the STOMP endpoint (both directions), to
// one mutation. With no mutation it changes nothing a client could tell, which the self-test checks
// before it trusts a mutated run (the baseline).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { BodyOverLimitError, endToEndHeaders, forward, proxyFailure, readWhole, writeResponse, type Upstream } from './httpForward.js';
import type { Mutation, ProxyRequest, ProxyResponse } from './mutation.js';
import { createUpgrades } from './webSocketUpgrade.js';

export interface ProxySetup {
  /** the server under test */
  baseUrl: string;
  /** its STOMP endpoint; the proxy serves it at the same path */
  wsUrl: string;
  mutation: Mutation;
  /** the longest the server may take to answer one request (default 60 s) */
  timeoutMs?: number;
  /** the largest request or response body, and STOMP frame, the proxy reads (default 16 MiB) */
  maxBodyBytes?: number;
}

export interface MutatingProxy {
  /** the proxy's base URL, to give the runner instead of the server's */
  url: string;
  /** the proxy's STOMP endpoint */
  wsUrl: string;
  /** how often the mutation replaced something so far */
  applied(): number;
  close(): Promise<void>;
}

const isResponse = (value: ProxyRequest | ProxyResponse): value is ProxyResponse => 'status' in value;

async function answer(upstream: Upstream, mutation: Mutation, count: () => void, req: http.IncomingMessage): Promise<ProxyResponse> {
  let request: ProxyRequest = { method: req.method ?? 'GET', path: req.url ?? '/', headers: endToEndHeaders(req.headers), body: Buffer.alloc(0) };
  try {
    request.body = await readWhole(req, upstream.maxBodyBytes, { drain: true });
  } catch (error) {
    if (error instanceof BodyOverLimitError) return proxyFailure(`the request's body is over ${upstream.maxBodyBytes} bytes`);
    throw error;
  }
  const replaced = mutation.request?.(request);
  if (replaced !== undefined) {
    count();
    if (isResponse(replaced)) return replaced;
    request = replaced;
  }
  let response: ProxyResponse;
  try {
    response = await forward(upstream, request);
  } catch (error) {
    return proxyFailure(error instanceof Error ? error.message : String(error));
  }
  const mutated = mutation.response?.(response, request);
  if (mutated === undefined) return response;
  count();
  return mutated;
}

export async function startMutatingProxy(setup: ProxySetup): Promise<MutatingProxy> {
  const upstream: Upstream = { base: new URL(setup.baseUrl), timeoutMs: setup.timeoutMs ?? 60_000, maxBodyBytes: setup.maxBodyBytes ?? 16 * 1024 * 1024 };
  const stompEndpoint = new URL(setup.wsUrl);
  let applied = 0;
  const count = () => void applied++;
  const webSockets = createUpgrades({ upstream, stompEndpoint, mutation: setup.mutation, onApplied: count });

  const server = http.createServer((req, res) => {
    answer(upstream, setup.mutation, count, req).then(
      (response) => writeResponse(res, response, req.method ?? 'GET'),
      (error: unknown) => writeResponse(res, proxyFailure(error instanceof Error ? error.message : String(error)), req.method ?? 'GET'),
    );
  });
  server.on('upgrade', webSockets.upgrade);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    wsUrl: `ws://127.0.0.1:${port}${stompEndpoint.pathname}`,
    applied: () => applied,
    async close() {
      webSockets.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
