// The landing page (GET /, JSON or HTML by Accept), the /docs/ redirect, the docs and dashboard
// assets served from installed packages, and the AsyncAPI page's document and address rewriting. What a real
// browser does with them is in test/browser/.
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { transform } from 'esbuild';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonAt, type Json } from '../../conformance/specModel/index.js';
import { asyncapiInitScript } from '../../src/operational/asyncapiPage.js';
import { signInModules, signInScripts } from '../../src/operational/browserScripts.js';
import { renderLandingPage } from '../../src/operational/landingPage.js';
import { loadSpecDocuments } from '../../src/operational/specDocuments.js';
import { ensureFreshBuild } from '../support/freshBuild.js';
import { bodyOf } from '../support/responseBody.js';
import { repoRoot } from '../support/serviceProcess.js';
import { startTestApp, type TestApp } from '../support/testApp.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const openapiInfo = loadSpecDocuments().openapi.info as { title: string; version: string };
const browserAccept = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('GET / (landing page)', () => {
  it('answers an API client with the links as JSON in the envelope, varying on Accept', async () => {
    for (const headers of [{}, { accept: '*/*' }, { accept: 'application/json' }] as Record<string, string>[]) {
      const res = await t.request('GET', '/', { headers });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('application/json');
      expect(res.headers.get('vary')).toBe('Accept');
      expect(res.body).toMatchObject({ success: true, status: 200, data: { title: openapiInfo.title, version: openapiInfo.version } });
    }
  });

  it('links Swagger UI, the AsyncAPI page, both specs and both probes, and every link answers 200 with its announced type', async () => {
    const { links } = bodyOf(await t.request('GET', '/'), 'getLandingPage', 200).data;
    expect(Object.values(links).map((link) => link.href)).toEqual(['/docs', '/docs/asyncapi', '/openapi.yaml', '/asyncapi.yaml', '/healthz', '/readyz']);
    for (const link of Object.values(links)) {
      const res = await t.request('GET', link.href);
      expect([link.href, res.status]).toEqual([link.href, 200]);
      expect(res.headers.get('content-type'), link.href).toContain(link.type);
    }
  });

  it('answers a browser with an HTML page holding the same links', async () => {
    const res = await t.request('GET', '/', { headers: { accept: browserAccept } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('vary')).toBe('Accept');
    for (const href of ['/docs', '/docs/asyncapi', '/docs/playground', '/openapi.yaml', '/asyncapi.yaml', '/healthz', '/readyz'])
      expect(res.text).toContain(`href="${href}"`);
    expect(res.text).not.toMatch(/https?:\/\//);
  });

  it('says whether dev-login is on, and offers it with the sign-in of the identity provider only as the server does', () => {
    const info = { title: 'T', version: '1' };
    const on = renderLandingPage(info, { oidcStartPath: null, devLoginEnabled: true });
    expect(on).toContain('Dev-login is on');
    expect(on).toContain('<form id="dev-login"');
    expect(on).toContain('data-dev-login="/api/v1/auth/dev-login"');
    expect(on).not.toContain('id="sign-in"');

    const provider = renderLandingPage(info, { oidcStartPath: '/api/v1/auth/oidc/login', devLoginEnabled: false });
    expect(provider).toContain('Dev-login is off on this server: sign in with the identity provider.');
    expect(provider).not.toContain('<form id="dev-login"');
    expect(provider).not.toContain('data-dev-login');
    expect(provider).toContain('<a id="sign-in" href="/api/v1/auth/oidc/login?returnTo=%2F">Sign in</a>');
    expect(provider).toContain('data-oidc-exchange="/api/v1/auth/oidc/token"');

    const neither = renderLandingPage(info, { oidcStartPath: null, devLoginEnabled: false });
    expect(neither).toContain('nobody can sign in from this page');
    expect(neither).not.toMatch(/id="(dev-login|sign-in)"/);
  });

  it("offers dev-login on the page as the server's setting says", async () => {
    const page = async (app: TestApp) => (await app.request('GET', '/', { headers: { accept: browserAccept } })).text;
    expect(await page(t)).toContain('<form id="dev-login"');
    const off = await startTestApp({ AUTH_DEV_LOGIN: 'false' });
    try {
      expect(await page(off)).toContain('Dev-login is off on this server and no identity provider is configured');
      expect(await page(off)).not.toContain('<form id="dev-login"');
    } finally {
      await off.close();
    }
  });

  it("loads its sign-in script from /docs/assets/, which serves the files the browser tests run: the last build's", async () => {
    await ensureFreshBuild();
    expect((await t.request('GET', '/', { headers: { accept: browserAccept } })).text).toContain(
      '<script type="module" src="/docs/assets/landingSignIn.js"></script>',
    );
    for (const name of signInModules) {
      const res = await t.request('GET', `/docs/assets/${name}`);
      expect([res.status, res.headers.get('content-type')], name).toEqual([200, 'text/javascript; charset=utf-8']);
      expect(res.text, name).toBe(fs.readFileSync(path.join(repoRoot, 'dist', signInScripts, name), 'utf8'));
    }
  }, 120_000);

  it("serves the sign-in scripts and Swagger UI's start compiled from TypeScript, still modules that import the tab's sign-in", async () => {
    await ensureFreshBuild();
    const served = async (name: string) => (await t.request('GET', `/docs/assets/${name}`)).text;
    for (const name of [...signInModules, 'init.js']) {
      // Parsed as plain JavaScript: a type annotation left in would not parse.
      await expect(transform(await served(name), { loader: 'js', format: 'esm' }), name).resolves.toBeDefined();
    }
    const importsOf = async (name: string) => ts.preProcessFile(await served(name), true, true).importedFiles.map((file) => file.fileName);
    expect(await importsOf('landingSignIn.js')).toEqual(['./tabSignIn.js']);
    expect(await importsOf('tabSignIn.js')).toEqual([]);
    expect(await importsOf('init.js')).toEqual(['./tabSignIn.js']);
  }, 120_000);

  it('is in the strict response check like every operation (HTML is a documented alternative, not a violation)', async () => {
    await t.request('GET', '/', { headers: { accept: 'text/html' } });
    expect(t.app.checker.violations).toEqual([]);
  });
});

describe('docs routes', () => {
  it('/docs/ redirects to Swagger UI at /docs', async () => {
    const res = await t.request('GET', '/docs/');
    expect([res.status, res.headers.get('location')]).toEqual([301, '/docs']);
  });

  it('the docs pages, the playground and the dashboard link each other and the landing page, with no address of their own', async () => {
    for (const page of ['/docs', '/docs/asyncapi', '/docs/dashboard', '/docs/playground']) {
      const res = await t.request('GET', page);
      for (const href of ['/', '/docs', '/docs/asyncapi', '/docs/playground', '/openapi.yaml', '/asyncapi.yaml', '/docs/dashboard'])
        expect(res.text, page).toContain(`href="${href}"`);
      // The AsyncAPI page embeds the document as written; its init script swaps in the page's address (below).
      const markup = res.text.replace(/<script type="application\/json"[^]*?<\/script>/, '');
      expect(markup, page).not.toMatch(/localhost|https?:\/\/|wss?:\/\//);
    }
  });

  it('serves the AsyncAPI page with the react component and its styles from node_modules', async () => {
    const page = await t.request('GET', '/docs/asyncapi');
    expect(page.text).toContain('<script src="/docs/asyncapi/assets/standalone.js"></script>');
    const bundle = await t.request('GET', '/docs/asyncapi/assets/standalone.js');
    expect([bundle.status, bundle.headers.get('content-type')]).toEqual([200, 'text/javascript; charset=utf-8']);
    expect(bundle.text).toContain('AsyncApiStandalone');
    const css = await t.request('GET', '/docs/asyncapi/assets/default.min.css');
    expect([css.status, css.headers.get('content-type')]).toEqual([200, 'text/css; charset=utf-8']);
  });

  it('serves the dashboard with uPlot from node_modules and its own two scripts, the parser being the one the unit tests run', async () => {
    const page = await t.request('GET', '/docs/dashboard');
    expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    expect(page.text).toContain('<script src="/docs/dashboard/assets/uPlot.iife.min.js"></script>');
    expect(page.text).toContain('<script type="module" src="/docs/dashboard/assets/dashboard.js"></script>');
    const uplot = await t.request('GET', '/docs/dashboard/assets/uPlot.iife.min.js');
    expect([uplot.status, uplot.headers.get('content-type')]).toEqual([200, 'text/javascript; charset=utf-8']);
    expect(uplot.text).toContain('uPlot');
    expect((await t.request('GET', '/docs/dashboard/assets/uPlot.min.css')).headers.get('content-type')).toBe('text/css; charset=utf-8');
    const script = await t.request('GET', '/docs/dashboard/assets/dashboard.js');
    expect(script.text).toContain("from './prometheusText.js'");
    const parser = await t.request('GET', '/docs/dashboard/assets/prometheusText.js');
    expect(parser.text).toBe(fs.readFileSync(path.resolve(import.meta.dirname, '../../src/operational/dashboard/prometheusText.js'), 'utf8'));
    expect(t.app.checker.violations).toEqual([]);
  });

  it('embeds the bundled asyncapi.yaml in the AsyncAPI page as JSON that no text in it can break out of', async () => {
    const documents = loadSpecDocuments();
    const page = await t.request('GET', '/docs/asyncapi');
    const embedded = /<script type="application\/json" id="asyncapi-document">([^<]*)<\/script>/.exec(page.text);
    expect(embedded).not.toBeNull();
    expect(JSON.parse(embedded![1]!)).toEqual(documents.asyncapi);
  });

  it('serves only the listed asset names (an inherited property name is not a file)', async () => {
    for (const name of ['constructor', '__proto__', 'toString', 'package.json', '..%2F..%2Fpackage.json']) {
      expect((await t.request('GET', `/docs/assets/${name}`)).status, name).toBe(404);
      expect((await t.request('GET', `/docs/asyncapi/assets/${name}`)).status, name).toBe(404);
      expect((await t.request('GET', `/docs/dashboard/assets/${name}`)).status, name).toBe(404);
      expect((await t.request('GET', `/docs/playground/assets/${name}`)).status, name).toBe(404);
    }
  });
});

describe('the AsyncAPI page shows the address it was opened at', () => {
  function render(document: unknown, host = '10.1.2.3:18999'): Json {
    let schema: unknown;
    vm.runInNewContext(asyncapiInitScript, {
      document: { getElementById: (id: string) => (id === 'asyncapi-document' ? { textContent: JSON.stringify(document) } : {}) },
      window: { location: { host } },
      AsyncApiStandalone: { render: (props: { schema: unknown }) => (schema = props.schema) },
    });
    return JSON.parse(JSON.stringify(schema)) as Json;
  }

  it('puts the host of the page in place of the STOMP server host of asyncapi.yaml, also where the texts quote it', () => {
    const { asyncapi } = loadSpecDocuments();
    const declared = jsonAt(asyncapi, 'servers', 'stomp', 'host');
    expect(declared).toEqual(expect.any(String));
    const shown = render(asyncapi);
    expect(jsonAt(shown, 'servers', 'stomp', 'host')).toBe('10.1.2.3:18999');
    expect(JSON.stringify([jsonAt(shown, 'servers', 'stomp'), jsonAt(shown, 'info')])).not.toContain(declared);
    expect(jsonAt(shown, 'servers', 'stomp', 'pathname')).toBe(jsonAt(asyncapi, 'servers', 'stomp', 'pathname'));
  });

  it('resolves a host template with variables and drops the variables the host used', () => {
    const shown = render({
      info: { description: 'Open `ws://localhost:8080/ws-stomp`.' },
      servers: {
        stomp: {
          host: '{host}:{port}',
          pathname: '/{base}/ws-stomp',
          protocol: 'stomp',
          summary: 'At ws://localhost:8080/ws-stomp by default.',
          variables: { host: { default: 'localhost' }, port: { default: '8080' }, base: { default: 'v1' } },
        },
      },
    });
    expect(jsonAt(shown, 'servers', 'stomp')).toEqual({
      host: '10.1.2.3:18999',
      pathname: '/{base}/ws-stomp',
      protocol: 'stomp',
      summary: 'At ws://10.1.2.3:18999/ws-stomp by default.',
      variables: { base: { default: 'v1' } },
    });
    expect(jsonAt(shown, 'info', 'description')).toBe('Open `ws://10.1.2.3:18999/ws-stomp`.');
  });

  it('leaves servers that are not reached over WebSocket alone', () => {
    const internal = { host: 'localhost', protocol: 'in-process' };
    expect(jsonAt(render({ servers: { internal } }), 'servers', 'internal')).toEqual(internal);
  });
});
