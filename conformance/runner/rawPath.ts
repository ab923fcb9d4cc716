// GET of a path exactly as written. fetch and URL normalise a path (`%2e%2e` becomes `..`, which
// is then resolved away), so requests that test how a server treats such paths go through
// node:http / node:https directly. Bounded like every request: the whole exchange by the target's
// timeout (not only idle time, which a server sending a byte now and then would never reach), the
// body by its size limit.
import http from 'node:http';
import https from 'node:https';
import { defaultMaxBodyBytes, parseJsonBody, type HttpTarget, type ProbeResponse } from './httpProbe.js';
import { BodyTooLargeError } from '../specModel/index.js';

export function getRawPath(target: HttpTarget, rawPath: string): Promise<ProbeResponse> {
  const base = new URL(target.baseUrl);
  const client = base.protocol === 'https:' ? https : http;
  const prefix = base.pathname.replace(/\/$/, '');
  const maxBytes = target.maxBodyBytes ?? defaultMaxBodyBytes;
  return new Promise((resolve, reject) => {
    const req = client.request(
      {
        protocol: base.protocol,
        hostname: base.hostname,
        port: base.port,
        method: 'GET',
        path: `${prefix}${rawPath}`,
        signal: AbortSignal.timeout(target.timeoutMs),
      },
      (res) => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
        const status = res.statusCode ?? 0;
        const oversized = (error: BodyTooLargeError) => {
          res.destroy();
          resolve({ status, headers, text: '', json: undefined, oversized: error.message });
        };
        const declared = Number(res.headers['content-length'] ?? Number.NaN);
        if (declared > maxBytes) return oversized(new BodyTooLargeError(maxBytes, declared));
        const chunks: Buffer[] = [];
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.byteLength;
          if (bytes > maxBytes) oversized(new BodyTooLargeError(maxBytes));
          else chunks.push(chunk);
        });
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status, headers, text, json: parseJsonBody(headers.get('content-type'), text) });
        });
        res.on('error', reject);
      },
    );
    req.on('error', (error) => reject(error.name === 'AbortError' ? new Error(`GET ${rawPath} took longer than ${target.timeoutMs} ms`) : error));
    req.end();
  });
}
