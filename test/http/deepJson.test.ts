// JSON bodies nested deeper than 32 levels are refused with 400 COMMON002 before they are parsed:
// never a 500, never a stack overflow in validation or in rendering the error, nothing logged as an
// error. Brackets inside strings do not count.
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../src/http/jsonDepth.js';
import { errorCodeOf, errorOf } from '../support/responseBody.js';
import { busanTrip, startTestApp, type TestApp } from '../support/testApp.js';

const logLines: { level: string; msg: string }[] = [];
const logSink = new Writable({
  write(chunk, _encoding, done) {
    logLines.push(JSON.parse(String(chunk)) as { level: string; msg: string });
    done();
  },
});

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await startTestApp({}, { logger: pino({ level: 'info', formatters: { level: (label) => ({ level: label }) } }, logSink) });
  token = (await t.signIn('deep@example.com')).accessToken;
});
afterAll(() => t.close());

const arrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const objects = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const postRaw = (rawBody: string) => t.request('POST', '/api/v1/trips', { token, rawBody, headers: { 'content-type': 'application/json' } });

describe('deep JSON', () => {
  it.each([
    ['arrays 100,000 deep', arrays(100_000)],
    ['objects 100,000 deep', objects(100_000)],
    ['a field 100,000 deep', JSON.stringify({ ...busanTrip, region: null }).replace('null', arrays(100_000))],
    [`arrays ${MAX_JSON_DEPTH + 1} deep`, arrays(MAX_JSON_DEPTH + 1)],
    ['an unterminated body 100,000 deep', '['.repeat(100_000)],
  ])('%s is 400 COMMON002', async (_name, body) => {
    const res = await postRaw(body);
    expect([res.status, errorCodeOf(res)]).toEqual([400, 'COMMON002']);
    expect(res.text).not.toMatch(/at .*\.(?:ts|js):\d+/);
  });

  it(`accepts ${MAX_JSON_DEPTH} levels: a deep field is then a schema error, echoed in bounded form`, async () => {
    const body = JSON.stringify({ ...busanTrip, region: null }).replace('null', arrays(MAX_JSON_DEPTH - 1));
    const res = await postRaw(body);
    expect([res.status, errorCodeOf(res)]).toEqual([400, 'COMMON001']);
    expect(errorOf(res).errors).toContainEqual(expect.objectContaining({ field: 'body.region', message: 'must be string' }));
  });

  it('does not count brackets inside strings, escaped quotes included', async () => {
    const region = `"${'['.repeat(40)}`;
    expect(nestsDeeperThan(JSON.stringify({ region }), MAX_JSON_DEPTH)).toBe(false);
    const res = await postRaw(JSON.stringify({ ...busanTrip, region }));
    // Parsed and validated: it only fails later, as a region the planner does not know.
    expect(errorCodeOf(res)).toBe('TRIP107');
  });

  it('logs no error for any of these user mistakes', () => {
    expect(logLines.filter((line) => line.level === 'error' || line.level === 'fatal')).toEqual([]);
  });
});
