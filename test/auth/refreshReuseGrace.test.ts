// Two tabs of one browser share a refresh token and may reissue with it at the same moment: within
// REFRESH_REUSE_GRACE_SECONDS of the rotation, the second reissue gets the same new pair the first
// got (on any instance of the database), and the session lives. A reuse after the grace, or of a
// token older than the last one rotated, is theft as before: the whole session ends.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freshPostgresDatabase } from '../support/postgres.js';
import { bodyOf, errorCodeOf } from '../support/responseBody.js';
import { startTestApp, type TestApp } from '../support/testApp.js';
import { testEngine } from '../support/testDatabase.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function app(env: Record<string, string> = {}): Promise<TestApp> {
  const t = await startTestApp(env);
  cleanups.push(() => t.close());
  return t;
}

/** Two instances of one database (PostgreSQL, or a SQLite file both open). */
async function twoInstances(): Promise<[TestApp, TestApp]> {
  let url: string;
  if (testEngine === 'postgres') {
    const database = await freshPostgresDatabase({ migrated: true });
    cleanups.push(() => database.drop());
    url = database.url;
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reuse-grace-'));
    cleanups.push(() => Promise.resolve(fs.rmSync(dir, { recursive: true, force: true })));
    url = path.join(dir, 'shared.sqlite');
  }
  // No generation runner polling the shared file: only the reissues here touch it.
  const env = { DATABASE_URL: url, GENERATION_CONCURRENCY: '0' };
  const a = await app(env);
  return [a, await app(env)];
}

const reissue = (t: TestApp, refreshToken: string) => t.request('POST', '/api/v1/auth/reissue', { body: { refreshToken } });
const me = (t: TestApp, token: string) => t.request('GET', '/api/v1/members/me', { token });

describe('reissue with a refresh token another tab has just rotated', () => {
  it('within the grace the second reissue gets the same new pair, and the session lives', async () => {
    const t = await app();
    const pair = await t.signIn('two.tabs@example.com');
    const first = bodyOf(await reissue(t, pair.refreshToken), 'reissueToken', 200).data;
    t.advance(9_000);
    const second = bodyOf(await reissue(t, pair.refreshToken), 'reissueToken', 200).data;
    expect(second).toEqual(first);
    expect((await me(t, first.accessToken)).status).toBe(200);
    const next = bodyOf(await reissue(t, first.refreshToken), 'reissueToken', 200).data;
    expect((await me(t, next.accessToken)).status).toBe(200);
  });

  it('two concurrent reissues on two instances of one database both succeed with the same pair; the session lives', async () => {
    const [a, b] = await twoInstances();
    const pair = await a.signIn('two.instances@example.com');
    const [onA, onB] = await Promise.all([reissue(a, pair.refreshToken), reissue(b, pair.refreshToken)]);
    const fromA = bodyOf(onA, 'reissueToken', 200).data;
    expect(bodyOf(onB, 'reissueToken', 200).data).toEqual(fromA);
    expect((await me(b, fromA.accessToken)).status).toBe(200);
    expect(bodyOf(await reissue(b, fromA.refreshToken), 'reissueToken', 200).data.refreshToken).not.toBe(fromA.refreshToken);
  });

  it('after the grace, the reuse ends the whole session (401 AUTH004)', async () => {
    const t = await app();
    const pair = await t.signIn('too.late@example.com');
    const rotated = bodyOf(await reissue(t, pair.refreshToken), 'reissueToken', 200).data;
    t.advance(10_001);
    expect(errorCodeOf(await reissue(t, pair.refreshToken))).toBe('AUTH004');
    expect(errorCodeOf(await me(t, rotated.accessToken))).toBe('AUTH001');
    expect(errorCodeOf(await reissue(t, rotated.refreshToken))).toBe('AUTH004');
  });

  it('only the token rotated last has the grace: an older one ends the session at once', async () => {
    const t = await app();
    const pair = await t.signIn('older@example.com');
    const second = bodyOf(await reissue(t, pair.refreshToken), 'reissueToken', 200).data;
    const third = bodyOf(await reissue(t, second.refreshToken), 'reissueToken', 200).data;
    expect(errorCodeOf(await reissue(t, pair.refreshToken))).toBe('AUTH004');
    expect(errorCodeOf(await me(t, third.accessToken))).toBe('AUTH001');
  });

  it('REFRESH_REUSE_GRACE_SECONDS=0: the second reissue ends the session at once', async () => {
    const t = await app({ REFRESH_REUSE_GRACE_SECONDS: '0' });
    const pair = await t.signIn('no.grace@example.com');
    const rotated = bodyOf(await reissue(t, pair.refreshToken), 'reissueToken', 200).data;
    expect(errorCodeOf(await reissue(t, pair.refreshToken))).toBe('AUTH004');
    expect(errorCodeOf(await me(t, rotated.accessToken))).toBe('AUTH001');
  });
});
