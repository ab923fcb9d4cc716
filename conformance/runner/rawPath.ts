// GET of a path exactly as written. fetch and URL normalise a path (`%2e%2e` becomes `..`, which
// is then resolved away), so requests that test how a server treats such paths go through
// node:http / node:https directly.
import http from 'node:http';
import https from 'node:https';
import type { HttpTarget, ProbeResponse } from './httpProbe.js';
import type { Json } from '../specModel/index.js';

export function getRawPath(target: HttpTarget, rawPath: string): Promise<ProbeResponse> {
  const base = new URL(target.baseUrl);
  const client = base.protocol === 'https:' ? https : http;
  const prefix = base.pathname.replace(/\/$/, '');
  return new Promise((resolve, reject) => {
    const req = client.request(
      { protocol: base.protocol, hostname: base.hostname, port: base.port, method: 'GET', path: `${prefix}${rawPath}`, timeout: target.timeoutMs },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
          let json: Json | undefined;
          try {
            json = (headers.get('content-type') ?? '').includes('json') ? (JSON.parse(text) as Json) : undefined;
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers, text, json });
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`GET ${rawPath} timed out after ${target.timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}
