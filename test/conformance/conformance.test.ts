// The conformance runner against our own app: the real app passes every phase (this is the fuzzing
// that CI runs, with a fixed seed and a modest budget), and deliberately broken variants are each
// caught by the check meant for them.
import path from 'node:path';
import { Hono, type Context } from 'hono';
import { describe, expect, it } from 'vitest';
import type { CheckName, PhaseName } from '../../conformance/runner/checks.js';
import { objectOrEmpty, type Json, type JsonObject } from '../../conformance/specModel/index.js';
import { allPhases, runConformance, type ConformanceResult } from '../../conformance/runner/runner.js';
import { loadSpecIndex } from '../../conformance/runner/specIndex.js';
import type { App } from '../../src/composition/app.js';
import { AppError } from '../../src/kernel/appError.js';
import { envelope, renderError } from '../../src/kernel/envelope.js';
import type { HttpEnv } from '../../src/http/httpEnv.js';
import { createInProcessBroker, type Broker } from '../../src/delivery/broker.js';
import type { LogPosition } from '../../src/delivery/planLog.js';
import { findTripPlanById } from '../../src/trips/tripPlanRepository.js';
import { toTripPlanDetailResponse } from '../../src/trips/tripPlanMappers.js';
import type { TestAppOptions } from '../support/testApp.js';
import { testEngine } from '../support/testDatabase.js';
import { startTestServer } from '../support/testServer.js';
import { headerValue, startStompFrameProxy, withHeaderLines, type FrameRewrite } from '../support/stompFrameProxy.js';

const root = path.resolve(import.meta.dirname, '../..');
const spec = loadSpecIndex(path.join(root, 'specs/openapi.yaml'), path.join(root, 'specs/asyncapi.yaml'));

/** A broker that delivers what `alter` makes of each message: a server breaking the AsyncAPI contract on purpose. */
function brokerAltering(alter: (destination: string, body: string, position: LogPosition) => { body: string; position: LogPosition }): Broker {
  const broker = createInProcessBroker(() => {});
  return {
    ...broker,
    publish: (memberId: number, destination: string, body: string, position: LogPosition) => {
      const altered = alter(destination, body, position);
      return broker.publish(memberId, destination, altered.body, altered.position);
    },
  };
}
/** `frames`: the STOMP connections go through a proxy that rewrites their frames (stompFrameProxy.ts). */
async function run(options: TestAppOptions, phases: PhaseName[], maxExamples = 4, frames?: () => FrameRewrite) {
  // The app's own response validation is off, as on a server that does not check itself.
  const server = await startTestServer({ RESPONSE_VALIDATION: 'off' }, options);
  const stompUrl = `${server.url.replace(/^http/, 'ws')}/ws-stomp`;
  const proxy = frames ? await startStompFrameProxy(stompUrl, frames) : null;
  // Stopped as soon as its run ends: fifteen servers kept to the end of the file would hold a pool
  // of PostgreSQL connections each, which other test files running alongside need too.
  try {
    return await runConformance(
      spec,
      {
        baseUrl: server.url,
        wsUrl: proxy?.url ?? stompUrl,
        login: 'dev',
        seed: 42,
        maxExamples,
        timeoutMs: 5000,
        generationTimeoutMs: 8000,
      },
      phases,
    );
  } finally {
    await proxy?.close();
    await server.stop();
  }
}

/** The coverage a full run of this file's budget reaches today (a percentage); raise it when the runner reaches more. */
const COVERAGE_FLOOR = 35;

describe('conformance of the real app', () => {
  it('passes every phase with a fixed seed', async () => {
    const result = await run({}, allPhases, 12);
    for (const report of result.reports) {
      expect(report.failures, `${report.phase}: ${JSON.stringify(report.failures.slice(0, 3), null, 1)}`).toEqual([]);
      expect(report.checks, report.phase).toBeGreaterThan(0);
    }
    expect(result.reports.map((r) => r.phase)).toEqual([
      'examples',
      'positive',
      'negative',
      'auth',
      'stateful',
      'paging',
      'conventions',
      'async',
      'delivery',
      'robustness',
    ]);
    const ran = (phase: PhaseName) => Object.keys(result.reports.find((r) => r.phase === phase)!.tally);
    // The checks of every response ran and held (error_fields and field_named on the negative phase's 400s).
    expect(ran('negative')).toEqual(
      expect.arrayContaining(['header_valid', 'envelope_status', 'error_code', 'error_fields', 'field_named', 'negative_rejected']),
    );
    expect(ran('paging')).toEqual(expect.arrayContaining(['page_size', 'page_cursor', 'page_items', 'page_order']));
    expect(ran('conventions')).toEqual(expect.arrayContaining(['method_not_allowed', 'request_id']));
    // Every robustness check ran and held.
    expect(Object.keys(result.reports.find((r) => r.phase === 'robustness')!.tally)).toEqual(
      expect.arrayContaining([
        'size_limit',
        'error_body_size',
        'date_rejected',
        'deep_json_rejected',
        'static_path_404',
        'canonical_id',
        'repeated_query_param',
        'unknown_region',
      ]),
    );
    const async = result.reports.find((r) => r.phase === 'async')!;
    expect(async.messages).toBeGreaterThan(10);
    // The frames' headers and the delivery guarantees were checked, and held.
    expect(Object.keys(async.tally)).toEqual(expect.arrayContaining(['frame_headers', 'log_sequence', 'replay_recovered']));
    // What a full run reaches of what the specs document (docs/conformance.md, "Coverage"): every
    // channel's messages but UNSUBSCRIBE and DISCONNECT, and a floor that only moves up.
    const missing = Object.fromEntries(result.coverage.dimensions.map((d) => [d.name, d.missing]));
    expect(missing['operation statuses']).not.toEqual(expect.arrayContaining(['getTripPlan 404', 'listTripPlans 200', 'swapScheduledPlaces 204']));
    expect(missing['channel messages']).toEqual(['stompConnection StompUnsubscribe', 'stompConnection StompDisconnect']);
    expect(result.coverage.percent).toBeGreaterThanOrEqual(COVERAGE_FLOOR);
  }, 120_000);
});

// A broken variant is a small app in front of the real one: it answers the paths it breaks (often
// by asking the real app first and spoiling the answer) and forwards everything else, WebSocket
// upgrades included. A variant that tampers with STOMP messages replaces the broker port instead.
type Front = (front: Hono<HttpEnv>, app: App) => void;

const inFront = (broken: Front): TestAppOptions => ({
  front: (app) => {
    const front = new Hono<HttpEnv>();
    broken(front, app);
    front.all('*', (c) => app.hono.fetch(c.req.raw, c.env));
    // What the app answers when something throws, without the stack on stderr.
    front.onError((_error, c) => c.json(renderError(new AppError('COMMON500'), c.req.path).body, 500));
    return front;
  },
});

const forward = (c: Context, app: App, request: Request = c.req.raw) => app.hono.fetch(request, c.env);
const json = (c: Context, status: number, data: unknown) => c.json(envelope(status, data), status as 200);

/** A GET whose real answer, when it is a 200, is replaced by what `spoil` makes of its data. */
const spoilGet = (route: string, spoil: (data: JsonObject, c: Context) => Response) =>
  inFront((front, app) =>
    front.get(route, async (c) => {
      const real = await forward(c, app);
      return real.status === 200 ? spoil(objectOrEmpty(((await real.json()) as { data: Json }).data), c) : real;
    }),
  );

/** Every frame of `command` with its header lines changed by `change`. */
const headerLines = (command: string, change: (lines: string[]) => string[]) => () => ({
  toClient: (frame: string) => withHeaderLines(frame, command, change),
});

/** A server whose offsets are `shift`ed: the client sees every MESSAGE's x-offset, and the server every x-since, mapped consistently. */
const offsetsShifted = (shift: (offset: number) => number, unshift: (offset: number) => number) => () => ({
  toClient: (frame: string) =>
    withHeaderLines(frame, 'MESSAGE', (lines) => lines.map((line) => line.replace(/^x-offset:(\d+)$/, (_m, n: string) => `x-offset:${shift(Number(n))}`))),
  toServer: (frame: string) => frame.replace(/^x-since:(.*)\\c(\d+)$/m, (_m, epoch: string, n: string) => `x-since:${epoch}\\c${unshift(Number(n))}`),
});

/** A server that leaves the first message out of each x-replay:all history and still says x-recovered: true. */
const historyWithoutItsFirst = () => {
  const replaying = new Set<string>();
  return {
    toServer: (frame: string) => {
      const id = headerValue(frame, 'id');
      if (frame.startsWith('SUBSCRIBE\n') && headerValue(frame, 'x-replay') === 'all' && id) replaying.add(id);
      return frame;
    },
    toClient: (frame: string) => {
      const subscription = frame.startsWith('MESSAGE\n') ? headerValue(frame, 'subscription') : undefined;
      return subscription !== undefined && replaying.delete(subscription) ? null : frame;
    },
  };
};

const variants: {
  name: string;
  options: TestAppOptions;
  phases: PhaseName[];
  check: CheckName;
  target: string;
  /** the STOMP frames go through a proxy that rewrites them */
  frames?: () => FrameRewrite;
  /** no other check fails */
  alone?: true;
}[] = [
  {
    name: 'a handler returns an undocumented status',
    options: spoilGet('/api/v1/members/me/name', (_data, c) => json(c, 418, { name: 'teapot' })),
    phases: ['examples'],
    check: 'status_documented',
    target: 'getMyName',
  },
  {
    name: 'a response drops a required field',
    options: spoilGet('/api/v1/trips/:tripPlanId', ({ title: _dropped, ...rest }, c) => json(c, 200, rest)),
    phases: ['examples'],
    check: 'body_valid',
    target: 'getTripPlan',
  },
  {
    name: 'a response adds an undocumented field',
    options: spoilGet('/api/v1/members/me/name', (data, c) => json(c, 200, { ...data, passwordHash: 'x' })),
    phases: ['examples'],
    check: 'body_valid',
    target: 'getMyName',
  },
  {
    name: 'a response is text instead of JSON',
    options: inFront((front) => front.get('/api/v1/members/me/name', (c) => c.text('Min-ji'))),
    phases: ['examples'],
    check: 'content_type',
    target: 'getMyName',
  },
  {
    name: 'a handler throws (500)',
    options: spoilGet('/api/v1/trips/daily-plans/:tripPlanId', () => {
      throw new Error('boom');
    }),
    phases: ['examples'],
    check: 'not_5xx',
    target: 'listDailyPlans',
  },
  {
    name: 'a handler skips the ownership check',
    options: inFront((front, app) =>
      front.get('/api/v1/trips/:tripPlanId', async (c) => {
        const real = await forward(c, app);
        if (real.status === 401) return real;
        const plan = await findTripPlanById(app.services.db, Number(c.req.param('tripPlanId')));
        return plan ? json(c, 200, toTripPlanDetailResponse(plan)) : real;
      }),
    ),
    phases: ['auth'],
    check: 'no_existence_leak',
    target: 'getTripPlan',
  },
  {
    name: 'a route ignores auth',
    options: inFront((front) =>
      front.get('/api/v1/members/me', (c) =>
        c.json({
          success: true,
          status: 200,
          data: {
            id: 1,
            email: 'a@example.com',
            name: 'a',
            imageUrl: null,
            provider: 'DEV',
            role: 'MEMBER',
            createdAt: '2026-01-01T00:00:00Z',
            updatedAt: '2026-01-01T00:00:00Z',
          },
        }),
      ),
    ),
    phases: ['auth'],
    check: 'auth_required',
    target: 'getMe',
  },
  {
    name: 'a deleted plan stays readable',
    options: inFront((front, app) =>
      front.delete('/api/v1/trips/:tripPlanId', async (c) => {
        // Asks the real app whether the caller may see the plan, then deletes nothing.
        const real = await forward(c, app, new Request(c.req.url, { headers: c.req.raw.headers }));
        return real.status === 200 ? c.body(null, 204) : real;
      }),
    ),
    phases: ['stateful'],
    check: 'use_after_free',
    target: 'getTripPlan',
  },
  {
    name: 'a chat message of the wrong shape goes out on STOMP',
    options: {
      broker: brokerAltering((destination, body, position) => ({
        // Not isComplete: the runner would wait out its generation timeout for the end it hides.
        body: destination.includes('/chat/') ? body.replace('"timestamp"', '"sentAt"') : body,
        position,
      })),
    },
    phases: ['async'],
    check: 'message_valid',
    target: 'chatStream',
  },
  {
    name: 'live messages carry other positions than the history has',
    options: {
      broker: brokerAltering((_destination, body, position) => ({ body, position: { ...position, offset: position.offset + 1 } })),
    },
    phases: ['async'],
    check: 'message_replay',
    target: 'scheduleUpdates',
  },
  {
    name: 'a blank chat message is refused with another code than the one documented',
    options: {
      broker: brokerAltering((destination, body, position) => ({
        body: destination.includes('/errors/') ? body.replace('"CHAT102"', '"COMMON001"') : body,
        position,
      })),
    },
    phases: ['async'],
    check: 'negative_rejected',
    target: 'chatMessages',
  },
  {
    name: 'a MESSAGE carries a header its message does not declare',
    options: {},
    frames: headerLines('MESSAGE', (lines) => [...lines, 'x-trace:abc']),
    phases: ['async'],
    check: 'frame_headers',
    target: 'chatStream',
    alone: true,
  },
  {
    name: 'a MESSAGE has no message-id',
    options: {},
    frames: headerLines('MESSAGE', (lines) => lines.filter((line) => !line.startsWith('message-id:'))),
    phases: ['async'],
    check: 'frame_headers',
    target: 'scheduleUpdates',
    alone: true,
  },
  {
    name: 'CONNECTED has a heart-beat of the wrong format',
    options: {},
    frames: headerLines('CONNECTED', (lines) => lines.map((line) => (line.startsWith('heart-beat:') ? 'heart-beat:0/0' : line))),
    phases: ['async'],
    check: 'frame_headers',
    target: 'StompConnected',
    alone: true,
  },
  {
    name: 'an ERROR frame has no error-code',
    options: {},
    frames: headerLines('ERROR', (lines) => lines.filter((line) => !line.startsWith('error-code:'))),
    phases: ['async'],
    check: 'frame_headers',
    target: 'StompError',
    alone: true,
  },
  {
    name: 'the offsets of a log skip one',
    options: {},
    frames: offsetsShifted(
      (n) => (n >= 2 ? n + 1 : n),
      (n) => (n > 2 ? n - 1 : n),
    ),
    phases: ['async'],
    check: 'log_sequence',
    target: 'tripPlan',
  },
  {
    name: 'the offsets of a log begin at 2',
    options: {},
    frames: offsetsShifted(
      (n) => n + 1,
      (n) => n - 1,
    ),
    phases: ['async'],
    check: 'log_sequence',
    target: 'chatRoom',
  },
  {
    name: 'x-recovered: true after a history that misses its first message',
    options: {},
    frames: historyWithoutItsFirst,
    phases: ['async'],
    check: 'replay_recovered',
    target: 'tripPlan',
  },
  {
    name: 'an error body echoes the whole request body',
    options: inFront((front) =>
      front.post('/api/v1/auth/reissue', async (c) => {
        const errors = [{ field: 'body', rejectedValue: await c.req.text(), message: 'is invalid' }];
        return c.json(
          {
            success: false,
            status: 400,
            data: { timestamp: new Date().toISOString(), code: 'COMMON001', message: 'Request validation failed.', path: c.req.path, errors },
          },
          400,
        );
      }),
    ),
    phases: ['robustness'],
    check: 'error_body_size',
    target: 'reissueToken',
  },
  {
    // A second bundle (say, the AsyncAPI page's assets) served the way Swagger UI's once was.
    name: 'static assets are looked up as properties of a plain object',
    options: inFront((front) =>
      front.get('/docs/asyncapi/assets/:file', (c) => {
        const types: Record<string, string> = { 'swagger-ui.css': 'text/css' };
        const type = types[c.req.param('file')];
        return type ? c.body(`/* ${type.toUpperCase()} */`, 200, { 'content-type': type }) : c.notFound();
      }),
    ),
    phases: ['robustness'],
    check: 'static_path_404',
    target: '/docs/asyncapi/assets/__proto__',
  },
  {
    name: 'ids are parsed leniently (Number("03") is 3)',
    options: inFront((front) =>
      front.get('/api/v1/trips/:tripPlanId', (c) => {
        const id = Number(c.req.param('tripPlanId'));
        const data = {
          timestamp: new Date().toISOString(),
          code: Number.isSafeInteger(id) ? 'TRIP101' : 'COMMON001',
          message: 'x',
          path: c.req.path,
          errors: null,
        };
        return c.json({ success: false, status: Number.isSafeInteger(id) ? 404 : 400, data }, Number.isSafeInteger(id) ? 404 : 400);
      }),
    ),
    phases: ['robustness'],
    check: 'canonical_id',
    target: 'getTripPlan',
  },
  {
    name: 'any region is accepted',
    options: inFront((front, app) =>
      front.post('/api/v1/trips', async (c) => {
        let text = await c.req.text();
        try {
          const body: unknown = JSON.parse(text);
          if (body !== null && typeof body === 'object' && !Array.isArray(body) && 'region' in body) text = JSON.stringify({ ...body, region: 'Busan' });
        } catch {
          // not JSON: the real app answers it
        }
        const headers = new Headers(c.req.raw.headers);
        headers.delete('content-length');
        return forward(c, app, new Request(c.req.url, { method: 'POST', headers, body: text }));
      }),
    ),
    phases: ['robustness'],
    check: 'unknown_region',
    target: 'createTripPlanSession',
  },
];

// Faults of the checks every response gets and of the phases "negative", "auth", "paging" and
// "conventions" share two runs (one of the phases "negative", "auth" and "conventions", one of
// "paging"): each fault breaks an operation (a sort of a list, a path) no other fault touches, so
// the run of the faulty app shows which check caught which fault, and that no other check failed
// on its target.
interface Fault {
  name: string;
  breaks: Front;
  check: CheckName;
  target: string;
}

/** The real answer with its JSON body changed by `spoil` (status and headers kept, X-Request-Id among them); null keeps it as it was. */
async function spoiled(real: Response, spoil: (body: JsonObject) => JsonObject | null): Promise<Response> {
  const body = spoil(objectOrEmpty(await real.clone().json()));
  if (body === null) return real;
  const headers = new Headers(real.headers);
  headers.delete('content-length');
  return new Response(JSON.stringify(body), { status: real.status, headers });
}
/** The same for the `data` of a 200 answer, e.g. a page. */
const spoiledData = (real: Response, spoil: (data: JsonObject) => JsonObject | null): Promise<Response> | Response =>
  real.status !== 200
    ? real
    : spoiled(real, (body) => {
        const data = spoil(objectOrEmpty(body.data));
        return data && { ...body, data };
      });
/** The real answer with one header changed. */
function withHeader(real: Response, name: string, value: string | null): Response {
  const headers = new Headers(real.headers);
  if (value === null) headers.delete(name);
  else headers.set(name, value);
  return new Response(real.body, { status: real.status, headers });
}
const idOf = (item: Json | undefined) => Number(objectOrEmpty(item).id);
const itemsOf = (page: JsonObject) => (Array.isArray(page.content) ? page.content : []);

/** The same request with its query changed. */
function withQuery(c: Context, change: (query: URLSearchParams) => void): Request {
  const url = new URL(c.req.url);
  change(url.searchParams);
  return new Request(url, { headers: c.req.raw.headers });
}

const responseFaults: Fault[] = [
  {
    name: 'RateLimit-Remaining is negative',
    breaks: (front, app) => front.get('/api/v1/members/me/name', async (c) => withHeader(await forward(c, app), 'RateLimit-Remaining', '-1')),
    check: 'header_valid',
    target: 'getMyName',
  },
  {
    name: 'a missing plan answers the generic COMMON404 instead of TRIP101',
    breaks: (front, app) =>
      front.get('/api/v1/trips/:tripPlanId', async (c) => {
        const real = await forward(c, app);
        return real.status === 404 ? spoiled(real, (body) => ({ ...body, data: { ...objectOrEmpty(body.data), code: 'COMMON404' } })) : real;
      }),
    check: 'error_code',
    target: 'getTripPlan',
  },
  {
    name: 'COMMON001 comes without its errors',
    breaks: (front, app) =>
      front.patch('/api/v1/trips/:tripPlanId', async (c) => {
        const real = await forward(c, app);
        return real.status === 400 ? spoiled(real, (body) => ({ ...body, data: { ...objectOrEmpty(body.data), errors: null } })) : real;
      }),
    check: 'error_fields',
    target: 'updateTripPlanTitle',
  },
  {
    name: 'a validation error names another field than the one that failed',
    breaks: (front, app) =>
      front.post('/api/v1/auth/reissue', async (c) => {
        const real = await forward(c, app);
        if (real.status !== 400) return real;
        return spoiled(real, (body) => {
          const data = objectOrEmpty(body.data);
          const errors = Array.isArray(data.errors) ? data.errors.map((e) => ({ ...objectOrEmpty(e), field: 'body.somethingElse' })) : null;
          return { ...body, data: { ...data, errors } };
        });
      }),
    check: 'field_named',
    target: 'reissueToken',
  },
  {
    name: '405 without Allow',
    breaks: (front, app) =>
      front.on(['PUT', 'POST', 'PATCH', 'DELETE'], '/api/v1/members/me/name', async (c) => withHeader(await forward(c, app), 'Allow', null)),
    check: 'method_not_allowed',
    target: '/api/v1/members/me/name',
  },
  {
    name: "the caller's X-Request-Id is not echoed",
    breaks: (front, app) =>
      front.get('/api/v1/trips', async (c) => {
        const real = await forward(c, app);
        return c.req.header('x-request-id') ? withHeader(real, 'X-Request-Id', crypto.randomUUID()) : real;
      }),
    check: 'request_id',
    target: 'listTripPlans',
  },
];

const pagingFaults: Fault[] = [
  // The paging phase creates the trip plans it lists.
  {
    name: "a 201's envelope says status 200",
    breaks: (front, app) =>
      front.post('/api/v1/trips', async (c) => {
        const real = await forward(c, app);
        return real.status === 201 ? spoiled(real, (body) => ({ ...body, status: 200 })) : real;
      }),
    check: 'envelope_status',
    target: 'createTripPlanSession',
  },
  {
    name: 'sort=startDate:asc is answered in descending order',
    breaks: (front, app) =>
      front.get('/api/v1/trips', async (c, next) =>
        c.req.query('sort') === 'startDate:asc'
          ? forward(
              c,
              app,
              withQuery(c, (q) => q.set('sort', 'startDate:desc')),
            )
          : next(),
      ),
    check: 'page_order',
    target: 'listTripPlans sort=startDate:asc',
  },
  {
    name: 'sort=createdAt:asc ignores size',
    breaks: (front, app) =>
      front.get('/api/v1/trips', async (c, next) =>
        c.req.query('sort') === 'createdAt:asc'
          ? forward(
              c,
              app,
              withQuery(c, (q) => q.set('size', '100')),
            )
          : next(),
      ),
    check: 'page_size',
    target: 'listTripPlans sort=createdAt:asc',
  },
  {
    name: "sort=startDate:desc gives a nextCursor one past the last item's id",
    breaks: (front, app) =>
      front.get('/api/v1/trips', async (c, next) =>
        c.req.query('sort') === 'startDate:desc'
          ? spoiledData(await forward(c, app), (page) => ({ ...page, nextCursor: page.nextCursor === null ? null : Number(page.nextCursor) + 1 }))
          : next(),
      ),
    check: 'page_cursor',
    target: 'listTripPlans sort=startDate:desc',
  },
  {
    // `>=` instead of `>` in the keyset: the page after a cursor starts with the cursor's item.
    name: "sort=createdAt:desc repeats the cursor's item on the next page",
    breaks: (front, app) => {
      const answered = new Map<number, Json>();
      front.get('/api/v1/trips', async (c, next) => {
        if (c.req.query('sort') !== 'createdAt:desc') return next();
        const cursor = c.req.query('cursor');
        const repeated = cursor === undefined ? undefined : answered.get(Number(cursor));
        const size = Number(c.req.query('size') ?? 10);
        const real = await forward(c, app, repeated ? withQuery(c, (q) => q.set('size', String(size - 1))) : c.req.raw);
        return spoiledData(real, (page) => {
          const content = [...(repeated ? [repeated] : []), ...itemsOf(page)];
          for (const item of content) answered.set(idOf(item), item);
          return { content, nextCursor: page.hasNext === true ? idOf(content.at(-1)) : null, hasNext: page.hasNext === true, size: content.length };
        });
      });
    },
    check: 'page_items',
    target: 'listTripPlans sort=createdAt:desc',
  },
  {
    name: 'the last page of a chat says hasNext',
    breaks: (front, app) =>
      front.get('/api/v1/chats/:chatRoomId/messages', async (c) =>
        spoiledData(await forward(c, app), (page) =>
          page.hasNext === true || itemsOf(page).length === 0 ? null : { ...page, hasNext: true, nextCursor: idOf(itemsOf(page).at(-1)) },
        ),
      ),
    check: 'page_cursor',
    target: 'listChatMessages',
  },
];

/** The faults' run, started by the first test that needs it. */
function faultRun(faults: Fault[], phases: PhaseName[]): () => Promise<ConformanceResult> {
  let result: Promise<ConformanceResult> | undefined;
  return () =>
    (result ??= run(
      inFront((front, app) => faults.forEach((fault) => fault.breaks(front, app))),
      phases,
    ));
}

// A broken variant breaks the app in front of its storage: the engine changes nothing of what the
// runner sees, so the variants run on SQLite only (the real app above runs on both).
const onSqliteOnly = describe.skipIf(testEngine === 'postgres');

onSqliteOnly.each([
  ['the checks of every response, negative, auth and conventions', responseFaults, faultRun(responseFaults, ['negative', 'auth', 'conventions'])],
  ['paging', pagingFaults, faultRun(pagingFaults, ['paging'])],
] as const)('faults caught by the right check: %s', (_name, faults, result) => {
  it.each(faults.map((f) => [f.name, f] as const))(
    '%s',
    async (_fault, fault) => {
      const failures = (await result()).reports.flatMap((r) => r.failures).filter((f) => f.target === fault.target);
      expect(failures.length, `expected [${fault.check}] ${fault.target}`).toBeGreaterThan(0);
      expect([...new Set(failures.map((f) => f.check))], JSON.stringify(failures.slice(0, 3), null, 1)).toEqual([fault.check]);
      expect(failures.every((f) => f.replay.length > 0)).toBe(true);
    },
    60_000,
  );

  it('fails nothing the faults did not break', async () => {
    const failures = (await result()).reports.flatMap((r) => r.failures).filter((f) => !faults.some((fault) => fault.target === f.target));
    expect(failures, JSON.stringify(failures.slice(0, 3), null, 1)).toEqual([]);
  }, 60_000);
});

onSqliteOnly('broken variants are caught by the right check', () => {
  it.each(variants.map((v) => [v.name, v] as const))(
    '%s',
    async (_name, variant) => {
      const result = await run(variant.options, variant.phases, 4, variant.frames);
      const failures = result.reports.flatMap((r) => r.failures);
      const got = JSON.stringify(failures.map((f) => `[${f.check}] ${f.target}: ${f.message.slice(0, 160)}`));
      expect(result.failed).toBe(true);
      expect(
        failures.some((f) => f.check === variant.check && f.target === variant.target),
        `expected [${variant.check}] ${variant.target}; got ${got}`,
      ).toBe(true);
      if (variant.alone)
        expect(
          failures.every((f) => f.check === variant.check),
          `only [${variant.check}] expected; got ${got}`,
        ).toBe(true);
      // Every failure can be replayed.
      expect(failures.every((f) => f.replay.length > 0)).toBe(true);
    },
    60_000,
  );
});
