// Static paths serve only the files we list: a prototype key (`__proto__`, `constructor`,
// `hasOwnProperty`, ...), an encoded dot segment or slash, or any other name answers 404, never 500.
// Sent over a real socket with the path exactly as written (fetch and URL would normalise it).
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { findStaticAsset, registerStaticAssets, type StaticAsset } from '../../src/operational/staticAssets.js';
import { ensureFreshBuild } from '../support/freshBuild.js';
import { startTestServer, type TestServer } from '../support/testServer.js';
import { type ErrorEnvelope } from '../support/responseBody.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.stop());

function getRaw(rawPath: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(t.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, path: rawPath, method: 'GET' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const notServed = [
  '__proto__',
  'constructor',
  'hasOwnProperty',
  'toString',
  'valueOf',
  '__defineGetter__',
  '%5F%5Fproto%5F%5F',
  '%2e%2e',
  '%2e%2e%2fpackage.json',
  '..%2f..%2fpackage.json',
  '..%5c..%5cpackage.json',
  '%2e%2e%2f%2e%2e%2fpackage.json',
  'swagger-ui.css%00',
  'swagger-ui.css%2f',
  'package.json',
  'index.html',
  '%E0%A4%A',
];

describe('static assets under /docs/assets', () => {
  it.each(notServed)('/docs/assets/%s is 404', async (name) => {
    const res = await getRaw(`/docs/assets/${name}`);
    expect(res.status).toBe(404);
    expect((JSON.parse(res.body) as ErrorEnvelope).data.code).toBe('COMMON404');
  });

  it('still serves the files it lists', async () => {
    // init.js is Swagger UI's start, compiled by the build.
    await ensureFreshBuild();
    for (const name of ['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png', 'init.js']) {
      expect((await getRaw(`/docs/assets/${name}`)).status, name).toBe(200);
    }
  }, 120_000);

  it('answers a listed file the build has not made yet 503 with what to do, not 500', async () => {
    const app = new Hono();
    registerStaticAssets(app, '/docs/assets', { 'later.js': { file: '/nowhere/not-built/later.js', type: 'text/javascript' } });
    const res = await app.request('/docs/assets/later.js');
    expect([res.status, await res.text()]).toEqual([503, '/docs/assets/later.js is not built: run npm run build, then reload.']);
  });

  it('looks names up as Map keys only, never as properties', () => {
    const assets = new Map<string, StaticAsset>([['a.css', { file: '/nowhere/a.css', type: 'text/css' }]]);
    for (const name of ['__proto__', 'constructor', 'hasOwnProperty', 'get', 'size']) expect(findStaticAsset(assets, name)).toBeNull();
    expect(findStaticAsset(assets, 'a.css')?.type).toBe('text/css');
  });
});
