// The HTTP half of the mutating proxy: a request read whole (up to a bound), sent on to the server
// under test, and its response read whole (up to a bound) before it is written back. Bodies are
// buffered, not streamed, so a mutation sees and rewrites them whole; hop-by-hop headers stay
// behind, and Content-Length always says the length of the body as written.
import http from 'node:http';
import https from 'node:https';
import type { ProxyRequest, ProxyResponse } from './mutation.js';

/** Headers that describe one connection, not the message (RFC 9110, 7.6.1), and those recomputed from the body. */
const hopByHop = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'content-length', 'host']);

export class BodyOverLimitError extends Error {}

/**
 * Reads a stream to its end; rejects with BodyOverLimitError past `maxBytes`. What comes after the
 * limit is not kept: the stream is destroyed (a server's endless answer), or with `drain` read on and
 * dropped, so the connection stays able to carry the proxy's answer (a client's request).
 */
export function readWhole(stream: NodeJS.ReadableStream & { destroy(): void }, maxBytes: number, { drain = false } = {}): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let bytes = 0;
    stream.on('data', (part: Buffer) => {
      if (bytes > maxBytes) return;
      bytes += part.length;
      if (bytes <= maxBytes) return void parts.push(part);
      parts.length = 0;
      if (!drain) stream.destroy();
      reject(new BodyOverLimitError(`a body over ${maxBytes} bytes`));
    });
    stream.on('end', () => resolve(Buffer.concat(parts)));
    stream.on('error', reject);
  });
}

/** The message's headers without the hop-by-hop ones. */
export function endToEndHeaders(headers: http.IncomingHttpHeaders): ProxyRequest['headers'] {
  const kept: ProxyRequest['headers'] = {};
  const named = new Set((typeof headers.connection === 'string' ? headers.connection : '').split(',').map((name) => name.trim().toLowerCase()));
  for (const [name, value] of Object.entries(headers)) if (!hopByHop.has(name) && !named.has(name)) kept[name] = value;
  return kept;
}

export interface Upstream {
  base: URL;
  timeoutMs: number;
  maxBodyBytes: number;
}

/** Sends the request to the server and reads its whole response. */
export function forward(upstream: Upstream, request: ProxyRequest): Promise<ProxyResponse> {
  const { base } = upstream;
  const transport = base.protocol === 'https:' ? https : http;
  const headers: http.OutgoingHttpHeaders = { ...request.headers, host: base.host };
  if (request.body.length > 0 || !['GET', 'HEAD', 'DELETE', 'OPTIONS'].includes(request.method)) headers['content-length'] = request.body.length;
  return new Promise((resolve, reject) => {
    const outgoing = transport.request(
      {
        protocol: base.protocol,
        hostname: base.hostname,
        port: base.port,
        method: request.method,
        path: `${base.pathname.replace(/\/$/, '')}${request.path}`,
        headers,
        timeout: upstream.timeoutMs,
      },
      (incoming) => {
        readWhole(incoming, upstream.maxBodyBytes).then(
          (body) => resolve({ status: incoming.statusCode ?? 502, headers: endToEndHeaders(incoming.headers), body }),
          reject,
        );
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error(`the server did not answer within ${upstream.timeoutMs} ms`)));
    outgoing.on('error', reject);
    outgoing.end(request.body);
  });
}

/** Writes a response back to the client, its Content-Length from the body (none for a response that has no body). */
export function writeResponse(res: http.ServerResponse, response: ProxyResponse, method: string): void {
  const headers: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(response.headers)) if (value !== undefined && !hopByHop.has(name)) headers[name] = value;
  const bodiless = method === 'HEAD' || response.status === 204 || response.status === 304 || response.status < 200;
  if (!bodiless) headers['content-length'] = response.body.length;
  res.writeHead(response.status, headers);
  res.end(bodiless ? undefined : response.body);
}

/** The proxy's own answer when it could not do its part (the server unreachable, a body over the bound): a 502 that says so. */
export const proxyFailure = (why: string): ProxyResponse => ({
  status: 502,
  headers: { 'content-type': 'text/plain; charset=utf-8', 'x-mutating-proxy': 'failed' },
  body: Buffer.from(`the mutating proxy could not forward this request: ${why}\n`, 'utf8'),
});
