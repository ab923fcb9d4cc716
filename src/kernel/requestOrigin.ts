// Where a request arrived as its client sees it: scheme, host and port. Behind a TLS-terminating
// proxy the socket speaks http, so X-Forwarded-Proto (http or https) wins over the request URL.
import type { Context } from 'hono';

export interface RequestOrigin {
  scheme: 'http' | 'https';
  host: string;
  port: string;
}

const defaultPorts = { http: '80', https: '443' } as const;

export function requestOrigin(c: Context): RequestOrigin {
  const url = new URL(c.req.url);
  const forwarded = c.req.header('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  const scheme = forwarded === 'http' || forwarded === 'https' ? forwarded : url.protocol === 'https:' ? 'https' : 'http';
  // URL has normalised the host already (lower case, IPv6 in brackets); port '' means the default.
  return { scheme, host: url.hostname, port: url.port || defaultPorts[scheme] };
}
