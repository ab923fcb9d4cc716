// The breaking-change checker against edited copies of the real specs, plus runs of the CLI's main
// function over a throwaway git repository (which loads and bundles the specs as the CLI does).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { jsonAt, jsonText, loadSpecFolder, readYaml, type SpecFolder } from '../../conformance/specModel/index.js';
import type { Change } from '../../conformance/specDiff/change.js';
import { diffSpecs } from '../../conformance/specDiff/diffSpecs.js';
import { relatePatterns, type Evidence } from '../../conformance/specDiff/patternRelation.js';
import { patternIncludes } from '../../conformance/specDiff/regexInclusion.js';
import { readPattern } from '../../conformance/specDiff/regexShape.js';
import { verdict } from '../../conformance/specDiff/report.js';
import { runSpecDiff } from '../../conformance/specDiff/run.js';
import { asyncapiPath, internalEventsPath, openapiPath, specsDir } from '../../codegen/specFiles.js';

type Json = any;

const tempDirs: string[] = [];
const tempDir = (): string => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spec-diff-test-'));
  tempDirs.push(dir);
  return dir;
};
afterAll(() => tempDirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

// JSON is YAML too, and writing it is much faster than YAML.stringify.
function writeSpecs(dir: string, openapi: Json, asyncapi: Json, internalEvents?: Json): void {
  fs.mkdirSync(path.join(dir, 'internal'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'openapi.yaml'), JSON.stringify(openapi, null, 1));
  fs.writeFileSync(path.join(dir, 'asyncapi.yaml'), JSON.stringify(asyncapi, null, 1));
  if (internalEvents) fs.writeFileSync(path.join(dir, 'internal', 'events.asyncapi.yaml'), JSON.stringify(internalEvents, null, 1));
}

const base = loadSpecFolder(specsDir);
const rawAsyncapi: Json = readYaml(asyncapiPath);
const rawInternalEvents: Json = readYaml(internalEventsPath);
// Schemas bundle() copied from openapi.yaml into the AsyncAPI documents (refs inside them stay local).
const importedInto = (bundled: Json, raw: Json) => Object.keys(bundled.components.schemas).filter((name) => !(name in raw.components.schemas));
const imported = importedInto(base.asyncapi, rawAsyncapi);
const importedInternal = importedInto(base.internalEvents, rawInternalEvents);

// The real specs with `edit` applied to copies, in memory: parsing YAML per case would make the suite
// slow. The AsyncAPI copies are the bundled ones, with their imported schemas refreshed from the
// edited openapi copy, which is what bundle() would produce (the git test below goes through bundle() itself).
function variant(edit: (openapi: Json, asyncapi: Json) => void): SpecFolder {
  const [openapi, asyncapi, internalEvents] = [structuredClone(base.openapi) as Json, structuredClone(base.asyncapi) as Json, structuredClone(base.internalEvents) as Json];
  edit(openapi, asyncapi);
  for (const name of imported) asyncapi.components.schemas[name] = structuredClone(openapi.components.schemas[name]);
  for (const name of importedInternal) internalEvents.components.schemas[name] = structuredClone(openapi.components.schemas[name]);
  return { openapi, asyncapi, internalEvents };
}

const changesAgainstBase = (edit: (openapi: Json, asyncapi: Json) => void): Change[] => diffSpecs(base, variant(edit)).changes;
const breaking = (changes: Change[]) => changes.filter((c) => c.severity === 'breaking');
const schemaOf = (doc: Json, name: string): Json => doc.components.schemas[name];
/** Renames a component schema and every $ref to it, as a spec author would. */
function renameSchema(doc: Json, from: string, to: string): void {
  const rewrite = (node: Json): void => {
    if (node === null || typeof node !== 'object') return;
    if (node.$ref === `#/components/schemas/${from}`) node.$ref = `#/components/schemas/${to}`;
    Object.values(node).forEach(rewrite);
  };
  doc.components.schemas[to] = doc.components.schemas[from];
  delete doc.components.schemas[from];
  rewrite(doc);
}
const errorCodeAlternative = (code: string) => ({ type: 'string', const: code, description: 'A new code.', 'x-http-status': 404, 'x-default-message': 'Gone.' });
const dropProperty = (schema: Json, name: string): void => {
  delete schema.properties[name];
  schema.required = (schema.required ?? []).filter((n: string) => n !== name);
};

describe('spec diff', () => {
  it('finds no change when the specs are compared with themselves', () => {
    const diff = diffSpecs(base, variant(() => {}));
    expect(diff.changes).toEqual([]);
    expect(verdict(diff, true)).toEqual({ exitCode: 0, lines: ['', 'OK: no breaking changes.'] });
  });

  it('flags a removed response field on every response that carries it', () => {
    const changes = changesAgainstBase((openapi) => dropProperty(schemaOf(openapi, 'TripPlanDetailResponse'), 'title'));
    expect(breaking(changes)).toEqual([
      expect.objectContaining({
        api: 'openapi',
        rule: 'response-property-removed',
        location: 'getTripPlan GET /api/v1/trips/{tripPlanId} response 200 body: data.title',
      }),
    ]);
  });

  it('flags a request field that became required, over HTTP and on the internal event that embeds it', () => {
    const changes = changesAgainstBase((openapi) => schemaOf(openapi, 'TripPlanCreateRequest').required.push('transportation'));
    expect(breaking(changes).map((c) => [c.api, c.rule, c.location])).toEqual([
      ['openapi', 'request-property-became-required', 'createTripPlanSession POST /api/v1/trips request body: transportation'],
      [
        'internal-events',
        'request-property-became-required',
        'channel tripPlanGenerationRequested trip-plan.generation-requested send TripPlanGenerationRequestedEvent payload: request.transportation',
      ],
    ]);
  });

  it('flags a removed operation', () => {
    const changes = changesAgainstBase((openapi) => delete openapi.paths['/api/v1/members/me/name']);
    expect(breaking(changes)).toEqual([expect.objectContaining({ rule: 'operation-removed', location: 'getMyName GET /api/v1/members/me/name' })]);
  });

  it('flags a removed enum value in requests only', () => {
    const changes = changesAgainstBase((openapi) => {
      const transportation = schemaOf(openapi, 'Transportation');
      transportation.enum = transportation.enum.filter((v: string) => v !== 'CAR');
    });
    const removed = changes.filter((c) => c.rule.endsWith('enum-value-removed'));
    expect(breaking(changes).map((c) => c.location)).toContain('createTripPlanSession POST /api/v1/trips request body: transportation');
    expect(breaking(changes).every((c) => c.rule === 'request-enum-value-removed')).toBe(true);
    expect(removed.find((c) => c.location === 'getTripPlan GET /api/v1/trips/{tripPlanId} response 200 body: data.transportation')?.severity).toBe(
      'non-breaking',
    );
  });

  it('flags an added enum value in a response (exhaustive clients) but not in a request', () => {
    const changes = changesAgainstBase((openapi) => schemaOf(openapi, 'Transportation').enum.push('BICYCLE'));
    const detail = changes.find((c) => c.location === 'getTripPlan GET /api/v1/trips/{tripPlanId} response 200 body: data.transportation');
    expect(detail).toMatchObject({ severity: 'breaking', rule: 'response-enum-value-added' });
    expect(detail?.reason).toContain('exhaustive enums');
    const request = changes.find((c) => c.location === 'createTripPlanSession POST /api/v1/trips request body: transportation');
    expect(request?.severity).toBe('non-breaking');
  });

  it('flags a narrowed request type and a widened response type', () => {
    const changes = changesAgainstBase((openapi) => {
      schemaOf(openapi, 'UpdateAiPromptTemplateRequest').properties.description.type = 'string';
      schemaOf(openapi, 'TripPlanDetailResponse').properties.title.type = ['string', 'null'];
    });
    expect(breaking(changes).map((c) => [c.rule, c.location])).toEqual([
      ['response-type-widened', 'getTripPlan GET /api/v1/trips/{tripPlanId} response 200 body: data.title'],
      ['request-type-narrowed', 'updatePromptTemplate PATCH /api/v1/admin/prompts/{promptId} request body: description'],
    ]);
  });

  it('flags tighter request bounds and a new request pattern', () => {
    const changes = changesAgainstBase((openapi) => {
      const region = schemaOf(openapi, 'TripPlanCreateRequest').properties.region;
      region.maxLength = 20;
      schemaOf(openapi, 'DevLoginRequest').properties.email.pattern = '@example\\.com$';
    });
    expect(breaking(changes).map((c) => c.rule)).toEqual(expect.arrayContaining(['request-max-length-tightened', 'request-pattern-added']));
  });

  it('does not flag a pattern that only restates an unchanged format (LocalDate), but flags any other', () => {
    const withoutPattern = variant((openapi) => delete schemaOf(openapi, 'LocalDate').pattern);
    const restating = diffSpecs(withoutPattern, base).changes.filter((c) => c.rule === 'request-pattern-added');
    expect(restating.length).toBeGreaterThan(0);
    expect(breaking(restating)).toEqual([]);
    expect(restating[0]!.reason).toContain('only restates format date');

    const otherPattern = variant((openapi) => (schemaOf(openapi, 'LocalDate').pattern = '^2026-'));
    expect(breaking(diffSpecs(withoutPattern, otherPattern).changes).map((c) => c.rule)).toContain('request-pattern-added');
  });

  it('flags a removed AsyncAPI channel and the operation on it', () => {
    const changes = changesAgainstBase((_openapi, asyncapi) => {
      delete asyncapi.channels.errors;
      delete asyncapi.operations.receiveErrors;
    });
    expect(breaking(changes).map((c) => [c.api, c.rule, c.location])).toEqual([
      ['asyncapi', 'channel-removed', 'channel errors /user/sub/errors/{chatRoomId}'],
      ['asyncapi', 'operation-removed', 'operation receiveErrors (receive on errors)'],
    ]);
  });

  it('judges each frame of the STOMP connection channel in the direction clients use it', () => {
    const changes = changesAgainstBase((_openapi, asyncapi) => {
      schemaOf(asyncapi, 'StompConnectHeaders').required = ['Authorization'];
      schemaOf(asyncapi, 'StompReceiptHeaders').required = [];
    });
    expect(breaking(changes).map((c) => [c.rule, c.location])).toEqual([
      ['request-property-became-required', 'channel stompConnection (stompConnection) send StompConnect headers: Authorization'],
      ['response-property-became-optional', 'channel stompConnection (stompConnection) receive StompReceipt headers: receipt-id'],
    ]);
  });

  it('flags a field removed from a received STOMP message', () => {
    const changes = changesAgainstBase((_openapi, asyncapi) => dropProperty(schemaOf(asyncapi, 'ChatTextMessage'), 'timestamp'));
    expect(breaking(changes)).toEqual([
      expect.objectContaining({
        api: 'asyncapi',
        rule: 'response-property-removed',
        location: 'channel chatStream /user/sub/chat/{chatRoomId} receive ChatStreamDto payload: <0>.timestamp',
      }),
    ]);
  });

  it('sees an object split into oneOf alternatives as the same values, unless an alternative loses a field', () => {
    // The reverse of the real refactor: TripPlanProgressMessage as one object again.
    const merged = (asyncapi: Json) => {
      const day = schemaOf(asyncapi, 'TripPlanDayMessage');
      const started = schemaOf(asyncapi, 'TripPlanUpdateStartedMessage');
      asyncapi.components.schemas.TripPlanProgressMessage = {
        type: 'object',
        additionalProperties: false,
        required: ['type', 'tripPlanId'],
        properties: { ...day.properties, type: { type: 'string', maxLength: 20, enum: [...day.properties.type.enum, started.properties.type.const] } },
      };
    };
    const asOneObject = variant((_openapi, asyncapi) => merged(asyncapi));
    expect(diffSpecs(asOneObject, base).changes).toEqual([]);
    expect(diffSpecs(base, asOneObject).changes).toEqual([]);

    const lossy = diffSpecs(asOneObject, variant((_openapi, asyncapi) => dropProperty(schemaOf(asyncapi, 'TripPlanDayMessage'), 'message'))).changes;
    expect(breaking(lossy)).toEqual([]);
    const stillLossy = diffSpecs(asOneObject, variant((_openapi, asyncapi) => {
      dropProperty(schemaOf(asyncapi, 'TripPlanDayMessage'), 'tripPlanId');
    })).changes;
    expect(breaking(stillLossy)).toEqual([expect.objectContaining({ rule: 'response-property-became-optional' })]);
  });

  it('flags a renamed or removed component schema, since SDK type names are part of the client API', () => {
    const changes = changesAgainstBase((openapi) => {
      renameSchema(openapi, 'TripPlanPageResponse', 'TripPlanPage');
      delete openapi.components.schemas.PageResponse;
    });
    expect(breaking(changes).map((c) => [c.rule, c.location, c.reason])).toEqual([
      ['schema-removed', 'components.schemas.PageResponse', expect.stringContaining('client code using PageResponse no longer compiles')],
      ['schema-renamed', 'components.schemas.TripPlanPageResponse', expect.stringMatching(/^renamed to TripPlanPage; .*client code using TripPlanPageResponse no longer compiles/)],
    ]);
    // Nothing changed on the wire: the page itself compares equal under its new name.
    expect(changes.filter((c) => c.location.startsWith('listTripPlans'))).toEqual([]);
  });

  it('takes a new error code as non-breaking because ErrorCode is an open enum (x-open-enum), and flags it without the flag', () => {
    const addCode = (openapi: Json) => schemaOf(openapi, 'ErrorCode').oneOf.splice(3, 0, errorCodeAlternative('TRIP199'));
    const changes = changesAgainstBase(addCode);
    expect(breaking(changes)).toEqual([]);
    expect(changes.filter((c) => c.rule === 'response-enum-value-added').map((c) => c.location)).toEqual(
      expect.arrayContaining([
        'getTripPlan GET /api/v1/trips/{tripPlanId} response 404 body: data.code',
        'channel errors /user/sub/errors/{chatRoomId} receive ErrorResponse payload: code',
      ]),
    );
    // Only the value is new: inserting it mid-list shifts every later alternative, which is no change.
    expect(new Set(changes.filter((c) => c.location.endsWith('data.code') || c.location.endsWith(': code')).map((c) => c.reason))).toEqual(
      new Set(['enum value "TRIP199" added to an open enum (x-open-enum)']),
    );
    const closed = changesAgainstBase((openapi) => {
      addCode(openapi);
      delete schemaOf(openapi, 'ErrorCode')['x-open-enum'];
    });
    expect(breaking(closed).every((c) => c.rule === 'response-enum-value-added')).toBe(true);
    expect(breaking(closed).length).toBeGreaterThan(0);
  });

  it('sees a free code string with a pattern becoming the list of codes as fewer possible values, not more', () => {
    const freeString = variant((openapi, asyncapi) => {
      schemaOf(openapi, 'ErrorResponse').properties.code = { type: 'string', maxLength: 20, pattern: '^[A-Z]+[0-9]{3}$' };
      schemaOf(asyncapi, 'StompErrorHeaders').properties['error-code'] = { type: 'string', maxLength: 16, pattern: '^WS[0-9]{3}$' };
      delete openapi.components.schemas.ErrorCode;
    });
    const changes = diffSpecs(freeString, base).changes.filter((c) => c.rule !== 'schema-added');
    expect(breaking(changes)).toEqual([]);
    expect(new Set(changes.map((c) => c.rule))).toEqual(new Set(['response-enum-added']));
    // The same list with a code that breaks the old pattern does widen what may arrive.
    const lowercase = variant((openapi) => schemaOf(openapi, 'ErrorCode').oneOf.push({ ...errorCodeAlternative('TRIP199'), const: 'trip199' }));
    expect(breaking(diffSpecs(freeString, lowercase).changes).map((c) => c.rule)).toContain('response-pattern-removed');
  });

  it('flags a changed success status', () => {
    const changes = changesAgainstBase((openapi) => {
      const responses = openapi.paths['/api/v1/trips'].post.responses;
      responses['200'] = responses['201'];
      delete responses['201'];
    });
    expect(breaking(changes)).toEqual([
      expect.objectContaining({ rule: 'response-success-status-changed', location: 'createTripPlanSession POST /api/v1/trips' }),
    ]);
  });

  it('classifies additive changes as non-breaking', () => {
    const changes = changesAgainstBase((openapi) => {
      schemaOf(openapi, 'TripPlanCreateRequest').properties.notes = { type: 'string', maxLength: 500 };
      openapi.paths['/api/v1/members/me/avatar'] = { get: structuredClone(openapi.paths['/api/v1/members/me/name'].get) };
      openapi.paths['/api/v1/members/me/avatar'].get.operationId = 'getMyAvatar';
      openapi.paths['/api/v1/trips'].post.description = 'Reworded, which is ignored.';
    });
    expect(breaking(changes)).toEqual([]);
    expect(changes.map((c) => [c.rule, c.location])).toEqual(
      expect.arrayContaining([
        ['request-property-added', 'createTripPlanSession POST /api/v1/trips request body: notes'],
        ['operation-added', 'getMyAvatar GET /api/v1/members/me/avatar'],
      ]),
    );
  });

  it('warns about a field added to a closed response schema (strict clients refuse it), not about one added to a closed request schema', () => {
    const changes = changesAgainstBase((openapi) => {
      schemaOf(openapi, 'MemberNameResponse').properties.nickname = { type: 'string', maxLength: 50 };
      schemaOf(openapi, 'OidcSignInCodeRequest').properties.nonce = { type: 'string', maxLength: 64 };
    });
    expect(changes.map((c) => [c.severity, c.rule, c.location])).toEqual([
      ['non-breaking', 'request-property-added', 'exchangeOidcSignInCode POST /api/v1/auth/oidc/token request body: nonce'],
      ['warning', 'response-property-added-to-closed-schema', 'getMyName GET /api/v1/members/me/name response 200 body: data.nickname'],
    ]);
    expect(changes[1]!.reason).toMatch(/additionalProperties: false.*strict clients/);
    // Every response object of ours is closed; an open one takes a new field silently.
    const opened = (openapi: Json) => delete schemaOf(openapi, 'MemberNameResponse').additionalProperties;
    const addNickname = (openapi: Json) => (schemaOf(openapi, 'MemberNameResponse').properties.nickname = { type: 'string' });
    const intoOpen = diffSpecs(variant(opened), variant((openapi) => (opened(openapi), addNickname(openapi)))).changes;
    expect(intoOpen.map((c) => [c.severity, c.rule])).toEqual([['non-breaking', 'response-property-added']]);
    const diff = diffSpecs(base, variant(addNickname));
    expect(verdict(diff, true)).toEqual({
      exitCode: 0,
      lines: ['', 'OK: no breaking changes.', 'NOTE: specs/openapi.yaml: 1 warning: a change that may break some clients; it does not fail the check, read it above.'],
    });
  });
});

describe('spec diff of servers', () => {
  const addTlsServer = (asyncapi: Json) => (asyncapi.servers.stompTls = { ...structuredClone(asyncapi.servers.stomp), host: 'trips.example.com', protocol: 'stomps' });

  it('flags a moved STOMP endpoint, and takes an added server as non-breaking', () => {
    const changes = changesAgainstBase((openapi, asyncapi) => {
      addTlsServer(asyncapi);
      asyncapi.servers.stomp.pathname = '/stomp';
      openapi.servers.push({ url: 'https://trips.example.com' });
    });
    expect(changes).toEqual([
      { api: 'openapi', severity: 'non-breaking', rule: 'server-added', location: 'server https://trips.example.com', reason: 'new server' },
      { api: 'asyncapi', severity: 'breaking', rule: 'server-pathname-changed', location: 'server stomp', reason: 'pathname /ws-stomp → /stomp; clients connect to the old endpoint' },
      { api: 'asyncapi', severity: 'non-breaking', rule: 'server-added', location: 'server stompTls', reason: 'new server stomps://trips.example.com/ws-stomp' },
    ]);
  });

  it('flags a removed server, a changed protocol, an OpenAPI base path and a variable value dropped; warns about a new default or protocol version', () => {
    const changes = diffSpecs(
      variant((_openapi, asyncapi) => addTlsServer(asyncapi)),
      variant((openapi, asyncapi) => {
        asyncapi.servers.stomp.protocol = 'ws';
        asyncapi.servers.stomp.protocolVersion = '1.3';
        openapi.servers[0].url = '{scheme}://{host}:{port}/v2';
        openapi.servers[0].variables.scheme = { enum: ['https'], default: 'https' };
      }),
    ).changes;
    expect(changes.map((c) => [c.api, c.severity, c.rule, c.location, c.reason])).toEqual([
      ['openapi', 'breaking', 'server-base-path-changed', 'server {scheme}://{host}:{port}', 'base path / → /v2; every operation moved, clients call the old URLs'],
      ['openapi', 'breaking', 'server-variable-value-removed', 'server {scheme}://{host}:{port} variable scheme', '"http" no longer allowed; clients using it cannot connect'],
      ['openapi', 'warning', 'server-variable-default-changed', 'server {scheme}://{host}:{port} variable scheme', 'default "http" → "https"; clients taking the default now reach another server'],
      ['asyncapi', 'breaking', 'server-protocol-changed', 'server stomp', 'protocol stomp → ws; clients speak the old protocol'],
      [
        'asyncapi',
        'warning',
        'server-protocol-version-changed',
        'server stomp',
        'protocolVersion 1.2 → 1.3; clients speaking only 1.2 fail to connect unless the server still accepts it',
      ],
      ['asyncapi', 'breaking', 'server-removed', 'server stompTls', 'server removed; clients configured for stomps://trips.example.com/ws-stomp cannot connect'],
    ]);
  });

  it('warns when an OpenAPI server goes from relative (the serving host) to a named host: clients may have called either', () => {
    const changes = diffSpecs(variant((openapi) => (openapi.servers = [{ url: '/' }])), base).changes;
    expect(changes.map((c) => [c.severity, c.rule, c.location, c.reason])).toEqual([
      [
        'warning',
        'server-host-changed',
        'server /',
        '(the host serving the document) → {scheme}://{host}:{port}; one side is relative to the host serving the document, so whether clients called this host cannot be told',
      ],
    ]);
  });

  it('judges bindings by shape: a new required handshake header breaks, a changed setting is a warning, a removed one is not', () => {
    // The WebSocket handshake's headers are a channel binding (ws); the settings are on the server.
    const withBindings = (required: string[], settings: Json) => (_openapi: Json, asyncapi: Json) => {
      const headers = { type: 'object', required, properties: { 'X-Client': { type: 'string' }, 'X-Tenant': { type: 'string' } } };
      asyncapi.channels.chatStream.bindings = { ws: { headers, bindingVersion: '0.1.0' } };
      asyncapi.servers.stomp.bindings = { mqtt: { ...settings, bindingVersion: '0.2.0' } };
    };
    const changes = diffSpecs(variant(withBindings([], { clientId: 'trips', keepAlive: 30 })), variant(withBindings(['X-Tenant'], { clientId: 'planner' }))).changes;
    expect(changes.map((c) => [c.severity, c.rule, c.location])).toEqual([
      ['warning', 'server-binding-changed', 'server stomp binding mqtt.clientId'],
      ['non-breaking', 'server-binding-removed', 'server stomp binding mqtt.keepAlive'],
      ['breaking', 'request-property-became-required', 'channel chatStream /user/sub/chat/{chatRoomId} binding ws.headers: X-Tenant'],
    ]);
    expect(changes[0]!.reason).toBe('"trips" → "planner"; whether clients must follow this setting depends on the mqtt binding: check it');
  });
});

describe('spec diff of patterns', () => {
  const codeVerifier = (openapi: Json) => schemaOf(openapi, 'OidcSignInCodeRequest').properties.codeVerifier;
  const dayErrorCode = (asyncapi: Json) => schemaOf(asyncapi, 'TripPlanDayMessage').properties.errorCode;
  const verifierAt = 'exchangeOidcSignInCode POST /api/v1/auth/oidc/token request body: codeVerifier';
  const patternChanges = (changes: Change[]) => changes.filter((c) => c.rule.includes('-pattern-')).map((c) => [c.severity, c.rule, c.location, c.reason]);
  const withVerifierPattern = (pattern: string) => variant((openapi) => (codeVerifier(openapi).pattern = pattern));

  it('takes a request pattern whose range grew or that gained an alternative as widened: not breaking', () => {
    const changes = changesAgainstBase((openapi) => {
      codeVerifier(openapi).pattern = '^[A-Za-z0-9._~-]{43,256}$';
      openapi.components.parameters.TripSort.schema.pattern = '^(createdAt|startDate|title):(asc|desc)$';
    });
    expect(patternChanges(changes)).toEqual([
      ['non-breaking', 'request-pattern-widened', expect.stringMatching(/^listTripPlans GET .* query parameter sort$/), expect.stringContaining('every string the old pattern matched still matches')],
      ['non-breaking', 'request-pattern-widened', verifierAt, expect.stringContaining('every string the old pattern matched still matches')],
    ]);
  });

  it('flags a narrowed request pattern, showing a value that no longer matches', () => {
    const changes = changesAgainstBase((openapi) => (codeVerifier(openapi).pattern = '^[A-Za-z0-9._~-]{43,64}$'));
    expect(patternChanges(changes)).toEqual([
      [
        'breaking',
        'request-pattern-narrowed',
        verifierAt,
        // The 128-character sample of the old range, cut for reading.
        `pattern "^[A-Za-z0-9._~-]{43,128}$" → "^[A-Za-z0-9._~-]{43,64}$": "${'~'.repeat(20)}…" (128 characters) matched before, not now; requests valid before are now rejected`,
      ],
    ]);
  });

  it('flags a widened response pattern: clients may get values they did not expect', () => {
    const changes = changesAgainstBase((_openapi, asyncapi) => (dayErrorCode(asyncapi).pattern = '^[A-Z]+[0-9]{3,4}$'));
    expect(patternChanges(changes)).toEqual([
      [
        'breaking',
        'response-pattern-widened',
        expect.stringMatching(/^channel scheduleUpdates .* receive .*: <\d>\.errorCode$/),
        expect.stringMatching(/^pattern .* "AA0000" matches now, not before; clients relying on the old schema may get values they do not expect$/),
      ],
    ]);
  });

  it('warns about a pattern change it can neither prove nor refute, and flags one whose samples differ both ways', () => {
    // Equivalent (the range already demands 43 characters), but a lookahead is beyond the structural comparison.
    const unprovable = changesAgainstBase((openapi) => (codeVerifier(openapi).pattern = '^(?=.{43})[A-Za-z0-9._~-]{43,128}$'));
    expect(patternChanges(unprovable)).toEqual([
      ['warning', 'request-pattern-changed', verifierAt, expect.stringContaining('could not tell whether every value accepted before still matches')],
    ]);
    const bothWays = diffSpecs(withVerifierPattern('^[a-z]+$'), withVerifierPattern('^\\w+-\\d$')).changes;
    expect(patternChanges(bothWays)).toEqual([
      ['breaking', 'request-pattern-changed', verifierAt, 'pattern "^[a-z]+$" → "^\\\\w+-\\\\d$": "a" matched before, not now; "a-0" matches now, not before; requests valid before are now rejected'],
    ]);
  });

  it('refutes with the schema\'s own examples and default what the generated samples miss', () => {
    // Only the default (createdAt:desc) shows what the lookahead removed; samples of the old pattern pair its alternatives by position.
    const changes = changesAgainstBase((openapi) => (openapi.components.parameters.TripSort.schema.pattern = '^(?!createdAt:desc)(createdAt|startDate):(asc|desc)$'));
    expect(patternChanges(changes)).toEqual([['breaking', 'request-pattern-changed', expect.stringContaining('query parameter sort'), expect.stringContaining('"createdAt:desc" matched before, not now')]]);
  });
});

describe('pattern comparison', () => {
  const relate = (before: string, after: string, known: string[] = []) => {
    const { lost, gained } = relatePatterns({ patterns: [before], enumValues: null }, { patterns: [after], enumValues: null }, [before], [after], known);
    const show = (e: Evidence) => (e.kind === 'some' ? e.witness : e.kind);
    return [show(lost), show(gained)];
  };

  it('decides the common shapes: [what the old pattern loses, what the new one gains]', () => {
    expect(relate('^abc$', 'abc')).toEqual(['none', '~abc~']); // anchors removed
    expect(relate('abc', '^abc')).toEqual(['~abc~', 'none']); // an anchor added
    expect(relate('^[a-z]+$', '^[a-z0-9]+$')).toEqual(['none', '0']); // a class gains members
    expect(relate('^[^a]$', '^[^ab]$')).toEqual(['b', 'none']); // a negated class loses one
    expect(relate('^(a|b|c)$', '^(a|b)$')).toEqual(['c', 'none']); // an alternative dropped
    expect(relate('^x(a|b)y$', '^x[ab]y$')).toEqual(['none', 'none']); // rewritten
    expect(relate('^a*$', '^a+$')).toEqual(['', 'none']); // the empty string is a witness too
    expect(relate('^[a-z]{2}$', '^[a-z][a-z]$')).toEqual(['unknown', 'unknown']); // equal, but beyond the rules
    // A lookahead is beyond the reader; the schema's own example shows what it took away.
    expect(relate('^[a-z]{2}$', '^(?!zz)[a-z]{2}$', ['zz'])).toEqual(['zz', 'unknown']);
  });

  it('never proves an inclusion that a string contradicts (random patterns and one-part edits of them, over a, b, c)', () => {
    let seed = 12345;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return Math.floor(seed / 2 ** 16) % n; // the high bits: the low ones of this generator repeat every few draws
    };
    const atoms = ['a', 'b', 'c', '[ab]', '[^a]', '.', '\\w', '(a|b)', '(a|bc)', '(ab|b)', '(a|b|c)', '(a*|b)'];
    const quantifiers = ['', '', '*', '+', '?', '{2}', '{1,2}', '{0,3}', '{2,}', '{1,3}'];
    // A pattern as [start anchor, atom, quantifier, atom, quantifier, ..., end anchor]; an edit
    // changes one of them, as a spec change usually does.
    const randomParts = () => [next(4) ? '^' : '', ...Array.from({ length: 1 + next(3) }, () => [atoms[next(atoms.length)]!, quantifiers[next(quantifiers.length)]!]).flat(), next(4) ? '$' : ''];
    const edit = (parts: string[]) => {
      const i = next(parts.length);
      const choices = i === 0 ? ['^', ''] : i === parts.length - 1 ? ['$', ''] : i % 2 === 1 ? atoms : quantifiers;
      return parts.map((part, j) => (j === i ? choices[next(choices.length)]! : part));
    };
    const strings = ['a', 'b', 'c', '-'].reduce<string[]>((all) => [...new Set([...all, ...all.flatMap((s) => ['a', 'b', 'c', '-'].map((c) => s + c))])], ['']);
    let proofs = 0;
    for (let i = 0; i < 600; i++) {
      const first = randomParts();
      const [outer, inner] = (next(2) ? [first, edit(first)] : [first, randomParts()]).map((parts) => parts.join(''));
      const [outerShape, innerShape] = [readPattern(outer!), readPattern(inner!)];
      if (outer === inner || !outerShape || !innerShape || !patternIncludes(outerShape, innerShape)) continue;
      proofs++;
      const [outerRegex, innerRegex] = [new RegExp(outer!, 'u'), new RegExp(inner!, 'u')];
      expect({ outer, inner, counterexample: strings.find((s) => innerRegex.test(s) && !outerRegex.test(s)) }).toEqual({ outer, inner, counterexample: undefined });
    }
    expect(proofs).toBeGreaterThan(100);
  });
});

describe('verdict', () => {
  const removeGetMyName = (openapi: Json) => delete openapi.paths['/api/v1/members/me/name'];

  it('fails on breaking changes only when asked to, and says so either way', () => {
    const diff = diffSpecs(base, variant(removeGetMyName));
    expect(verdict(diff, true)).toMatchObject({ exitCode: 1, lines: expect.arrayContaining([expect.stringMatching(/^FAIL: specs\/openapi\.yaml: 1 breaking change without/)]) });
    expect(verdict(diff, false)).toMatchObject({ exitCode: 0, lines: expect.arrayContaining([expect.stringMatching(/^WARNING: specs\/openapi\.yaml/)]) });
  });

  it('accepts breaking changes of a document whose info.version major went up', () => {
    const current = jsonText(jsonAt(base.openapi, 'info', 'version'));
    const next = `${Number(current.split('.')[0]) + 1}.0.0`;
    const diff = diffSpecs(
      base,
      variant((openapi) => {
        removeGetMyName(openapi);
        openapi.info.version = next;
      }),
    );
    expect(verdict(diff, true)).toMatchObject({ exitCode: 0, lines: expect.arrayContaining([expect.stringContaining(`info.version major bumped (${current} → ${next})`)]) });
  });
});

describe('npm run spec:diff', () => {
  // Isolated from the developer's git config (signing, hooks, default branch).
  const gitEnv = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
  const git = (cwd: string, ...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=spec-diff', '-c', 'user.email=spec-diff@example.com', ...args], { cwd, env: gitEnv, stdio: 'pipe' });

  it('compares a git ref with the working tree, resolving the ref\'s asyncapi against its own openapi', () => {
    const repo = tempDir();
    const run = (...args: string[]) => {
      const lines: string[] = [];
      const code = runSpecDiff(args, { root: repo, log: (line) => lines.push(line) });
      return { code, output: lines.join('\n') };
    };
    git(repo, 'init', '-q');
    fs.writeFileSync(path.join(repo, 'README.md'), 'before the specs\n');
    git(repo, 'add', '.');
    git(repo, 'commit', '-q', '-m', 'no specs yet');
    const [openapi, asyncapi, internalEvents] = [readYaml(openapiPath), structuredClone(rawAsyncapi), structuredClone(rawInternalEvents)];
    writeSpecs(path.join(repo, 'specs'), openapi, asyncapi, internalEvents);
    git(repo, 'add', '.');
    git(repo, 'commit', '-q', '-m', 'specs');
    // Only openapi.yaml changes, in a schema asyncapi.yaml borrows: both documents must see it.
    dropProperty(schemaOf(openapi, 'ErrorResponse'), 'path');
    writeSpecs(path.join(repo, 'specs'), openapi, asyncapi, internalEvents);
    git(repo, 'commit', '-q', '-am', 'drop ErrorResponse.path');

    const failing = run('HEAD~1', '--fail-on-breaking');
    expect(failing.code).toBe(1);
    expect(failing.output).toContain('getTripPlan GET /api/v1/trips/{tripPlanId} responses 400, 401, 404, 429, 500, 503 body: data.path');
    expect(failing.output).toContain('channel errors /user/sub/errors/{chatRoomId} receive ErrorResponse payload: path');
    expect(failing.output).toMatch(/FAIL: specs\/asyncapi\.yaml/);
    // The internal document of the ref was found and bundled against the ref's openapi.yaml.
    expect(failing.output).toContain('specs/internal/events.asyncapi.yaml  info.version 1.0.0 → 1.0.0: no changes');

    expect(run('HEAD~2')).toMatchObject({ code: 0, output: expect.stringContaining('has no specs/openapi.yaml') });
    expect(run('no-such-ref').code).toBe(2);
  });
});
