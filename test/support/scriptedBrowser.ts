// A browser without a browser: fetch with `redirect: 'manual'`, a cookie jar per origin, and the
// forms of the identity provider's development login pages filled in and posted. Requests to the
// service go wherever `service` sends them (the in-process app, or a real server).
import { expect } from 'vitest';

export type ServiceFetch = (pathAndQuery: string, init: { method: string; headers: Record<string, string>; body?: string }) => Promise<Response>;

export interface ScriptedBrowser {
  /** from the service's startOidcSignIn (with `codeChallenge` when given) to the provider's redirect back: the callback URL, not yet opened */
  signInAtProvider(login: string, returnTo?: string, codeChallenge?: string): Promise<URL>;
  /** a GET of `url` with this browser's cookies; Set-Cookie is kept */
  open(url: URL | string): Promise<Response>;
  /** the page's POST of the one-time code (and the verifier it kept) to exchangeOidcSignInCode, with this browser's cookies */
  exchange(code: string, codeVerifier?: string): Promise<Response>;
  /** the cookie `name` this browser holds for the service */
  serviceCookie(name: string): string | undefined;
  /** forget every cookie of the service (another browser, same provider session) */
  dropServiceCookies(): void;
}

const decode = (html: string) =>
  html
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#x2F;/g, '/')
    .replace(/&#39;/g, "'");

/** The first form of an HTML page: its action and hidden inputs. */
function readForm(html: string): { action: string; fields: Record<string, string> } {
  const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
  expect(action, `a form on the provider's page:\n${html.slice(0, 500)}`).toBeDefined();
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input[^>]*type="hidden"[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)) fields[match[1]!] = decode(match[2]!);
  return { action: decode(action!), fields };
}

export function scriptedBrowser(serviceOrigin: string, service: ServiceFetch): ScriptedBrowser {
  const jars = new Map<string, Map<string, string>>();
  const jar = (origin: string) => jars.get(origin) ?? jars.set(origin, new Map()).get(origin)!;

  function keep(origin: string, response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const [name, ...value] = pair!.split('=');
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=thu, 01 jan 1970/i.test(a));
      if (expired || value.join('=') === '') jar(origin).delete(name!.trim());
      else jar(origin).set(name!.trim(), value.join('='));
    }
  }

  async function request(url: URL, method = 'GET', body?: string, contentType = 'application/x-www-form-urlencoded'): Promise<Response> {
    const headers: Record<string, string> = {};
    const cookies = [...jar(url.origin)].map(([k, v]) => `${k}=${v}`).join('; ');
    if (cookies) headers.cookie = cookies;
    if (body !== undefined) headers['content-type'] = contentType;
    const response =
      url.origin === serviceOrigin
        ? await service(`${url.pathname}${url.search}`, { method, headers, body })
        : await fetch(url, { method, headers, body, redirect: 'manual' });
    keep(url.origin, response);
    return response;
  }

  return {
    async signInAtProvider(login, returnTo = '/', codeChallenge) {
      let url = new URL(`${serviceOrigin}/api/v1/auth/oidc/login?returnTo=${encodeURIComponent(returnTo)}`);
      if (codeChallenge !== undefined) url.searchParams.set('codeChallenge', codeChallenge);
      let response = await request(url);
      for (let hop = 0; hop < 20; hop++) {
        if (response.status >= 300 && response.status < 400) {
          url = new URL(response.headers.get('location')!, url);
          if (url.origin === serviceOrigin && url.pathname === '/api/v1/auth/oidc/callback') return url;
          response = await request(url);
          continue;
        }
        const html = await response.text();
        expect(response.status, `${url.href}: ${html.slice(0, 300)}`).toBe(200);
        const form = readForm(html);
        const fields = form.fields.prompt === 'login' ? { ...form.fields, login, password: 'any password' } : form.fields;
        url = new URL(form.action, url);
        response = await request(url, 'POST', new URLSearchParams(fields).toString());
      }
      throw new Error('no redirect back to the service after 20 hops');
    },
    open: (url) => request(new URL(url)),
    exchange: (code, codeVerifier) =>
      request(new URL('/api/v1/auth/oidc/token', serviceOrigin), 'POST', JSON.stringify({ code, codeVerifier }), 'application/json'),
    serviceCookie: (name) => jar(serviceOrigin).get(name),
    dropServiceCookies: () => jar(serviceOrigin).clear(),
  };
}
