// One JSON request over node:http(s). Not fetch: the realtime benchmark must cap its HTTP sockets
// (an http.Agent with maxSockets) so that 1000 users do not open 1000 extra sockets on either
// side, and fetch in Node 20 takes no agent.
import http from 'node:http';
import https from 'node:https';
import type { Json } from '../../conformance/specModel/index.js';

export interface JsonResponse {
  status: number;
  /** the parsed JSON, or the text of a body that is not JSON */
  body: Json;
}

/** The server could not be reached at all (refused, unknown host, reset): no HTTP status exists. */
export class ServerUnreachableError extends Error {}

const unreachableCodes = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNRESET', 'EHOSTUNREACH', 'ETIMEDOUT', 'ENETUNREACH']);

export function requestJson(url: string, opts: { method?: string; token?: string; body?: unknown; agent?: http.Agent } = {}): Promise<JsonResponse> {
  const target = new URL(url);
  const transport = target.protocol === 'https:' ? https : http;
  const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  const headers: Record<string, string> = { accept: 'application/json' };
  if (payload !== undefined) headers['content-type'] = 'application/json';
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  return new Promise((resolve, reject) => {
    const req = transport.request(target, { method: opts.method ?? 'GET', headers, ...(opts.agent && { agent: opts.agent }) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: Json = text;
        try {
          body = text ? (JSON.parse(text) as Json) : null;
        } catch {
          // not JSON: keep the text for the error message
        }
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code && unreachableCodes.has(error.code)) reject(new ServerUnreachableError(`cannot reach ${target.origin} (${error.code})`));
      else reject(error);
    });
    req.end(payload);
  });
}
