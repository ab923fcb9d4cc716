// The mock serves the service's own documents and docs pages, not examples of them: the same bytes
// at /openapi.yaml (its server pointing at the mock, as the service points it at itself),
// /asyncapi.yaml, the landing page, /docs, /docs/asyncapi, /docs/dashboard and /docs/playground,
// and every asset those pages load (the playground's script is the bundle of `npm run build`), so
// a generator, Swagger UI or the conformance suite pointed at the mock reads the real contract.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonAt, parseYaml } from '../../../conformance/specModel/index.js';
import { createMock, type Mock } from '../../../tools/mock/createMock.js';
import { startMockServer, type RunningMock } from '../../../tools/mock/mockServer.js';
import { ensureFreshBuild } from '../../support/freshBuild.js';
import { startTestApp, type TestApp } from '../../support/testApp.js';

const root = path.resolve(import.meta.dirname, '../../..');
const env = { NODE_ENV: 'test', LOG_LEVEL: 'silent' };

let mock: Mock;
let service: TestApp;
let running: RunningMock;
beforeAll(async () => {
  await ensureFreshBuild();
  mock = createMock(env);
  service = await startTestApp();
  running = await startMockServer(0, '127.0.0.1', env);
});
afterAll(async () => {
  mock.close();
  await service.close();
  await running.close();
});

/** The same request to the mock and to the service, in process (the same origin for both). */
async function both(url: string, accept?: string) {
  const init = accept ? { headers: { accept } } : {};
  const [fromMock, fromService] = await Promise.all([mock.hono.request(url, init), service.app.hono.request(url, init)]);
  const read = async (res: Response) => ({ status: res.status, type: res.headers.get('content-type'), body: Buffer.from(await res.arrayBuffer()) });
  return { mock: await read(fromMock), service: await read(fromService) };
}

/** What a page loads from its own server: its scripts, stylesheets and icon. */
const assetsOf = (html: string) => [...html.matchAll(/(?:src|href)="(\/docs\/[^"]*\.(?:js|css|png))"/g)].map((m) => m[1]!);

const pages = ['/docs', '/docs/asyncapi', '/docs/dashboard', '/docs/playground'];

describe("mock server: the documents and docs pages are the service's", () => {
  it.each(['/openapi.yaml', '/asyncapi.yaml', ...pages])('%s is the same answer, byte for byte, as the service gives', async (url) => {
    const answers = await both(url);
    expect(answers.mock.status).toBe(200);
    expect(answers.mock.type).toBe(answers.service.type);
    expect(answers.mock.body.equals(answers.service.body), url).toBe(true);
  });

  it('answers the landing page as the service does, as HTML to a browser and as JSON otherwise', async () => {
    for (const accept of ['text/html', 'application/json']) {
      const answers = await both('/', accept);
      expect(answers.mock.type, accept).toContain(accept);
      expect(answers.mock.body.toString(), accept).toBe(answers.service.body.toString());
    }
  });

  it('serves every asset the docs pages load, the same bytes as the service', async () => {
    const assets = new Set<string>();
    for (const page of pages) for (const asset of assetsOf(await (await mock.hono.request(page)).text())) assets.add(asset);
    expect([...assets]).toEqual(
      expect.arrayContaining(['/docs/assets/swagger-ui-bundle.js', '/docs/asyncapi/assets/standalone.js', '/docs/playground/assets/playground.js']),
    );
    for (const asset of assets) {
      const answers = await both(asset);
      expect(answers.mock.status, asset).toBe(200);
      expect(answers.mock.body.equals(answers.service.body), asset).toBe(true);
    }
  });

  it('points the served openapi.yaml at the mock it came from, over a real socket', async () => {
    const res = await fetch(`${running.url}/openapi.yaml`);
    const variables = jsonAt(parseYaml(await res.text()), 'servers', 0, 'variables');
    const { hostname, port } = new URL(running.url);
    expect([jsonAt(variables, 'scheme', 'default'), jsonAt(variables, 'host', 'default'), jsonAt(variables, 'port', 'default')]).toEqual([
      'http',
      hostname,
      port,
    ]);
  });

  it('serves asyncapi.yaml as the self-contained copy the service serves', async () => {
    const res = await fetch(`${running.url}/asyncapi.yaml`);
    expect(await res.text()).toBe(fs.readFileSync(path.join(root, 'generated/asyncapi.bundled.yaml'), 'utf8'));
  });
});
