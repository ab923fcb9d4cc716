// The cache of live sessions on SQLite (src/auth/liveSessionCache.ts): what it must never do is answer
// "live" for a session that was ended, whoever ended it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createLiveSessionCache } from '../../src/auth/liveSessionCache.js';
import { revokeSession } from '../../src/auth/sessionRepository.js';
import { openSqliteDatabasePort } from '../../src/composition/openDatabase.js';
import type { DatabasePort } from '../../src/db/databasePort.js';
import { addMember, addSession, T0 } from '../support/sqlFixtures.js';

describe('the cache of live sessions', () => {
  const owner = { memberId: 7, role: 'MEMBER' as const };

  it('remembers a session until it is forgotten', () => {
    const cache = createLiveSessionCache({ dataVersion: () => 1 });
    cache.remember('s', owner, T0 + 1000, T0);
    expect(cache.find('s', T0 + 1)).toMatchObject(owner);
    cache.forget('s');
    expect(cache.find('s', T0 + 2)).toBeUndefined();
  });

  it('does not answer for a session past its expiry, nor past its age limit', () => {
    const cache = createLiveSessionCache({ dataVersion: () => 1, maxAgeMs: 500 });
    cache.remember('expiring', owner, T0 + 100, T0);
    cache.remember('old', owner, T0 + 10_000, T0);
    expect(cache.find('expiring', T0 + 100)).toBeUndefined();
    expect(cache.find('old', T0 + 499)).toMatchObject(owner);
    expect(cache.find('old', T0 + 500)).toBeUndefined();
  });

  it('forgets everything once it reads that another connection has committed, at most a second later', () => {
    let version = 1;
    let reads = 0;
    const cache = createLiveSessionCache({
      dataVersion: () => {
        reads++;
        return version;
      },
      versionCheckMs: 1000,
    });
    cache.remember('a', owner, T0 + 60_000, T0);
    cache.remember('b', owner, T0 + 60_000, T0);
    const readsBefore = reads;
    expect(cache.find('a', T0 + 999)).toMatchObject(owner);
    expect(reads, 'no read of data_version within the second').toBe(readsBefore);
    version = 2;
    expect(cache.find('a', T0 + 1000)).toBeUndefined();
    expect(cache.find('b', T0 + 1000)).toBeUndefined();
  });

  it('keeps at most maxEntries, dropping the oldest', () => {
    const cache = createLiveSessionCache({ dataVersion: () => 1, maxEntries: 2 });
    for (const id of ['first', 'second', 'third']) cache.remember(id, owner, T0 + 1000, T0);
    expect(cache.find('first', T0)).toBeUndefined();
    expect(cache.find('third', T0)).toMatchObject(owner);
  });
});

describe('the live-session lookup on a SQLite file', () => {
  let dir: string | undefined;
  let port: DatabasePort | undefined;
  afterEach(async () => {
    await port?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  function openFile(): { port: DatabasePort; file: string } {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'live-sessions-'));
    const file = path.join(dir, 'app.db');
    port = openSqliteDatabasePort(file);
    return { port, file };
  }

  it('answers a session ended by revokeSession as ended at once, after it was found live', async () => {
    const { port: db } = openFile();
    const memberId = await addMember(db, 'revoked@example.com');
    await addSession(db, memberId, { id: 'session', expiresAt: T0 + 60_000 });
    expect(await db.statements.liveSessions.owner('session', T0)).toEqual({ memberId, role: 'MEMBER' });
    await revokeSession(db, 'session', 'logout', T0 + 1);
    expect(await db.statements.liveSessions.owner('session', T0 + 2)).toBeUndefined();
  });

  it('answers a session ended by another connection to the file as ended within a second, after it was found live', async () => {
    const { port: db, file } = openFile();
    const memberId = await addMember(db, 'elsewhere@example.com');
    await addSession(db, memberId, { id: 'session', expiresAt: T0 + 60_000 });
    expect(await db.statements.liveSessions.owner('session', T0)).toEqual({ memberId, role: 'MEMBER' });
    const other = new BetterSqlite3(file);
    try {
      other.prepare("UPDATE auth_session SET revoked_at = ?, revoked_reason = 'logout' WHERE id = 'session'").run(T0 + 1);
    } finally {
      other.close();
    }
    expect(await db.statements.liveSessions.owner('session', T0 + 1000)).toBeUndefined();
  });
});
