// /docs/playground as served: a trip form made from createTripPlanSession's request body (the
// schema's enums and bounds, nothing written twice), the sign-in the server offers, and its script,
// the bundle `npm run build` makes of the page's modules and the client package. What a browser
// does with it is in test/browser/playgroundInBrowser.test.ts.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonAt, jsonText, numberOrUndefined } from '../../conformance/specModel/index.js';
import { delivery } from '../../generated/asyncapi.js';
import { builtBrowserFile, playgroundBundle } from '../../src/operational/browserScripts.js';
import { loadSpecDocuments } from '../../src/operational/specDocuments.js';
import { ensureFreshBuild } from '../support/freshBuild.js';
import { repoRoot } from '../support/serviceProcess.js';
import { startTestApp, type TestApp } from '../support/testApp.js';

let t: TestApp;
let page: string;
beforeAll(async () => {
  t = await startTestApp();
  const res = await t.request('GET', '/docs/playground');
  expect([res.status, res.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
  page = res.text;
});
afterAll(() => t.close());

const { openapi, asyncapi } = loadSpecDocuments();
const schema = (name: string) => jsonAt(openapi, 'components', 'schemas', name);
const requestProperty = (name: string) => jsonAt(schema('TripPlanCreateRequest'), 'properties', name);
const valuesOf = (pattern: RegExp) => [...page.matchAll(pattern)].map((match) => match[1]);

describe('the playground page', () => {
  it('offers every theme and way of travelling of the schema, the default one chosen', () => {
    expect(valuesOf(/<input type="checkbox" name="themes" value="([A-Z_]+)"/g)).toEqual(jsonAt(schema('PlaceThemeType'), 'enum'));
    expect(valuesOf(/<option value="([A-Z_]+)"/g)).toEqual(jsonAt(schema('Transportation'), 'enum'));
    expect(page).toContain(`<option value="${jsonText(jsonAt(requestProperty('transportation'), 'default'))}" selected>`);
  });

  it('bounds the days, the people and the number of themes as the schema does', () => {
    const bounds = (name: string) => [numberOrUndefined(jsonAt(requestProperty(name), 'minimum')), numberOrUndefined(jsonAt(requestProperty(name), 'maximum'))];
    for (const name of ['duration', 'peopleCount']) {
      const input = new RegExp(`<input name="${name}" type="number" required min="(\\d+)" max="(\\d+)"`).exec(page);
      expect(input?.slice(1).map(Number), name).toEqual(bounds(name));
    }
    const themes = (bound: string) => numberOrUndefined(jsonAt(requestProperty('themes'), bound));
    expect(page).toContain(`<fieldset id="themes" data-min-items="${themes('minItems')}" data-max-items="${themes('maxItems')}">`);
  });

  it("bounds a chat message as asyncapi.yaml's ChatMessageRequest does", () => {
    const maxLength = numberOrUndefined(jsonAt(asyncapi, 'components', 'schemas', 'ChatMessageRequest', 'properties', 'content', 'maxLength'));
    expect(page).toContain(`<input name="content" required maxlength="${maxLength}"`);
  });

  it("names the replay headers of asyncapi.yaml's x-delivery, and offers dev-login when the server has it on", () => {
    expect(page).toContain(`data-since-header="${delivery.replay.since.header}" data-recovered-header="${delivery.replay.recoveredHeader}"`);
    expect(page).toContain('data-dev-login="/api/v1/auth/dev-login"');
    expect(page).toContain('<form id="dev-login">');
    expect(page).not.toContain('data-oidc-start');
    expect(page).toContain('<script type="module" src="/docs/playground/assets/playground.js"></script>');
    expect(t.app.checker.violations).toEqual([]);
  });

  it('without dev-login and without a provider, says nobody can sign in here', async () => {
    const off = await startTestApp({ AUTH_DEV_LOGIN: 'false' });
    try {
      const text = (await off.request('GET', '/docs/playground')).text;
      expect(text).not.toContain('id="dev-login"');
      expect(text).toContain('Dev-login is off on this server and no identity provider is configured');
    } finally {
      await off.close();
    }
  });
});

describe('the playground script', () => {
  beforeAll(ensureFreshBuild, 120_000);

  it('is the bundle of the last build, one file with the modules it imports inside', async () => {
    const res = await t.request('GET', '/docs/playground/assets/playground.js');
    expect([res.status, res.headers.get('content-type')]).toEqual([200, 'text/javascript; charset=utf-8']);
    expect(res.text).toBe(fs.readFileSync(path.join(repoRoot, 'dist', playgroundBundle), 'utf8'));
    // tabSignIn.ts's storage key: the sign-in module is in the bundle, not fetched beside it.
    expect(res.text).toContain('"oidcSignIn"');
    expect(res.text).not.toMatch(/(^|[;}\s])import\s*[{*\w"']/);
  });

  it('is found in dist/ both by the compiled server and by one run from the sources', () => {
    const bundle = path.join('/checkout', 'dist', playgroundBundle);
    expect(builtBrowserFile(playgroundBundle, '/checkout/dist/src/operational')).toBe(bundle);
    expect(builtBrowserFile(playgroundBundle, '/checkout/src/operational')).toBe(bundle);
  });
});
