// One transaction helper, two engines (src/db/databasePort.ts): tx() commits together or rolls back
// on throw on SQLite and PostgreSQL alike; on SQLite, where one connection serves everyone, nothing
// interleaves into an open transaction; on PostgreSQL, row locks (FOR UPDATE, SKIP LOCKED) hold
// across the async callback.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { asc, eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/db/database.js';
import { postgresPort, sqlitePort, type EnginePort, type PgQueries, type PostgresPort, type SqlitePort } from '../../src/db/databasePort.js';
import { openPostgresDatabase } from '../../src/db/postgresDatabase.js';
import { describeOnPostgres, freshPostgresDatabase, type FreshPostgresDatabase } from '../support/postgres.js';

/** The port with its queries typed once per engine, so one suite can drive both. */
interface Engine {
  port: EnginePort;
  tx: <T>(fn: (q: unknown) => Promise<T>) => Promise<T>;
  run: <T>(fn: (q: unknown) => Promise<T>) => Promise<T>;
  addMember: (q: unknown, email: string) => Promise<void>;
  emails: (q: unknown) => Promise<string[]>;
}

const member = (email: string) => ({ email, name: email, provider: 'test', createdAt: 1, updatedAt: 1 });

function sqliteEngine(port: SqlitePort): Engine {
  return {
    port,
    tx: (fn) => port.tx(fn),
    run: (fn) => port.run(fn),
    addMember: async (q, email) => void (await (q as Db).insert(port.t.members).values(member(email))),
    emails: async (q) => (await (q as Db).select({ email: port.t.members.email }).from(port.t.members).orderBy(asc(port.t.members.id))).map((r) => r.email),
  };
}

function postgresEngine(port: PostgresPort): Engine {
  return {
    port,
    tx: (fn) => port.tx(fn),
    run: (fn) => port.run(fn),
    addMember: async (q, email) => void (await (q as PgQueries).insert(port.t.members).values(member(email))),
    emails: async (q) =>
      (await (q as PgQueries).select({ email: port.t.members.email }).from(port.t.members).orderBy(asc(port.t.members.id))).map((r) => r.email),
  };
}

/** A promise the test resolves when it wants the callback waiting on it to go on. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** The message of what `fn` threw, or null. */
function attempt(fn: () => unknown): string | null {
  try {
    fn();
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

/** Lets every other pending callback and I/O turn run a few times. */
async function letOthersRun(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
}

function transactionSemantics(engine: () => Engine) {
  it('commits every statement of the callback together and returns its result', async () => {
    const { tx, run, addMember, emails } = engine();
    const result = await tx(async (q) => {
      await addMember(q, 'a@example.com');
      await addMember(q, 'b@example.com');
      return 'done';
    });
    expect(result).toBe('done');
    expect(await run(emails)).toEqual(['a@example.com', 'b@example.com']);
  });

  it('rolls back every statement when the callback throws, rethrows that error, and the next tx works', async () => {
    const { tx, run, addMember, emails } = engine();
    const failure = new Error('planner failed');
    await expect(
      tx(async (q) => {
        await addMember(q, 'a@example.com');
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await run(emails)).toEqual([]);

    await tx((q) => addMember(q, 'b@example.com'));
    expect(await run(emails)).toEqual(['b@example.com']);
  });

  it('rolls back when a statement fails (a unique violation) and the callback lets it through', async () => {
    const { tx, run, addMember, emails } = engine();
    await expect(
      tx(async (q) => {
        await addMember(q, 'a@example.com');
        await addMember(q, 'a@example.com');
      }),
    ).rejects.toThrow();
    expect(await run(emails)).toEqual([]);
  });

  it('refuses tx() or run() inside a callback instead of waiting for itself, and rolls back', async () => {
    const { tx, run, addMember, emails } = engine();
    await expect(
      tx(async (q) => {
        await addMember(q, 'a@example.com');
        await tx((inner) => addMember(inner, 'b@example.com'));
      }),
    ).rejects.toThrow(/tx\(\) called inside a tx\(\)\/run\(\) callback/);
    await expect(run(() => run(emails))).rejects.toThrow(/run\(\) called inside/);
    expect(await run(emails)).toEqual([]);
  });

  it('lets work a callback started and left running use the database once the callback has returned (even before COMMIT)', async () => {
    const { tx, run, emails } = engine();
    const returned = gate();
    let later: Promise<string[]> | undefined;
    const callback = () => {
      later = (async () => {
        await returned.opened;
        await new Promise((resolve) => setImmediate(resolve));
        return run(emails);
      })();
      return Promise.resolve();
    };
    await tx(() => callback().finally(returned.open));
    expect(await later).toEqual([]);
  });
}

describe('database port on SQLite', () => {
  let dir: string;
  let port: SqlitePort;
  let engine: Engine;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'port-'));
    port = sqlitePort(openDatabase(path.join(dir, 'db.sqlite')));
    engine = sqliteEngine(port);
  });
  afterEach(async () => {
    await port.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  transactionSemantics(() => engine);

  it('runs two concurrent transactions one after the other: the second starts after the first committed', async () => {
    const events: string[] = [];
    const first = gate();
    const a = engine.tx(async (q) => {
      events.push('A begins');
      await engine.addMember(q, 'a1@example.com');
      await first.opened;
      await engine.addMember(q, 'a2@example.com');
      events.push('A ends');
    });
    const b = engine.tx(async (q) => {
      events.push('B begins');
      const seen = await engine.emails(q);
      await engine.addMember(q, 'b@example.com');
      events.push(`B ends, having seen ${seen.join(' ')}`);
    });
    await letOthersRun();
    const whileAWaits = [...events];
    first.open();
    await Promise.all([a, b]);

    expect(whileAWaits).toEqual(['A begins']);
    expect(events).toEqual(['A begins', 'A ends', 'B begins', 'B ends, having seen a1@example.com a2@example.com']);
  });

  it('holds run() until an open transaction ends, so its write is not rolled back with it', async () => {
    const first = gate();
    const a = engine.tx(async (q) => {
      await engine.addMember(q, 'a@example.com');
      await first.opened;
      throw new Error('give up');
    });
    const r = engine.run((q) => engine.addMember(q, 'r@example.com'));
    await letOthersRun();
    first.open();

    await expect(a).rejects.toThrow('give up');
    await r;
    expect(await engine.run(engine.emails)).toEqual(['r@example.com']);
  });

  it('(why run() exists) a statement straight on port.db during an open transaction lands in it and is rolled back with it', async () => {
    const first = gate();
    const a = engine.tx(async (q) => {
      await engine.addMember(q, 'a@example.com');
      await first.opened;
      throw new Error('give up');
    });
    await letOthersRun();
    await engine.addMember(port.db, 'outside@example.com');
    first.open();

    await expect(a).rejects.toThrow('give up');
    expect(await engine.run(engine.emails)).toEqual([]);
  });

  it('takes the write lock at BEGIN (IMMEDIATE): another connection cannot start writing while a transaction is open', async () => {
    const other = new BetterSqlite3(path.join(dir, 'db.sqlite'), { timeout: 0 });
    try {
      const first = gate();
      const a = engine.tx(async () => {
        await first.opened;
      });
      await letOthersRun();
      const whileOpen = attempt(() => other.exec('BEGIN IMMEDIATE'));
      first.open();
      await a;

      expect(whileOpen).toMatch(/database is locked/);
      other.exec('BEGIN IMMEDIATE');
      other.exec('ROLLBACK');
    } finally {
      other.close();
    }
  });

  it('closes only after the transactions already queued have finished', async () => {
    const first = gate();
    const a = engine.tx(async (q) => {
      await first.opened;
      await engine.addMember(q, 'a@example.com');
    });
    const closing = port.close();
    first.open();
    await a;
    await closing;
    expect(port.db.$client.open).toBe(false);
  });
});

describeOnPostgres('database port on PostgreSQL', () => {
  let fresh: FreshPostgresDatabase;
  let port: PostgresPort;
  let engine: Engine;

  beforeEach(async () => {
    fresh = await freshPostgresDatabase({ migrated: true });
    port = postgresPort(await openPostgresDatabase(fresh.url, { poolMax: 4 }));
    engine = postgresEngine(port);
  });
  afterEach(async () => {
    await port.close();
    await fresh.drop();
  });

  transactionSemantics(() => engine);

  async function aPlan(): Promise<number> {
    const [owner] = await port.db.insert(port.t.members).values(member('owner@example.com')).returning();
    const [plan] = await port.db
      .insert(port.t.tripPlans)
      .values({
        memberId: owner!.id,
        title: 't',
        region: 'Busan',
        startDate: '2026-12-24',
        endDate: '2026-12-24',
        duration: 1,
        peopleCount: 1,
        themes: [],
        transportation: 'CAR',
        generationStatus: 'GENERATING',
        createdAt: 1,
        updatedAt: 1,
      })
      .returning();
    return plan!.id;
  }

  const lockWaiters = async () =>
    (await port.db.execute(sql`SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)).rows.length;

  async function waitForLockWaiters(): Promise<number> {
    for (let i = 0; i < 500 && (await lockWaiters()) === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    return lockWaiters();
  }

  it('SELECT … FOR UPDATE: a second transaction waits for the row and then reads what the first committed', async () => {
    const planId = await aPlan();
    const { tripPlans } = port.t;
    const attemptOf = (q: PgQueries) => q.select({ attempt: tripPlans.genAttempt }).from(tripPlans).where(eq(tripPlans.id, planId)).for('update');
    const first = gate();
    const held = gate();
    let secondRead: number | undefined;

    const a = port.tx(async (q) => {
      const [row] = await attemptOf(q);
      held.open();
      await first.opened;
      await q
        .update(tripPlans)
        .set({ genAttempt: row!.attempt + 1 })
        .where(eq(tripPlans.id, planId));
    });
    await held.opened;
    const b = port.tx(async (q) => {
      const [row] = await attemptOf(q);
      secondRead = row!.attempt;
      await q
        .update(tripPlans)
        .set({ genAttempt: row!.attempt + 1 })
        .where(eq(tripPlans.id, planId));
    });
    const waiters = await waitForLockWaiters();
    const readWhileWaiting = secondRead;
    first.open();
    await Promise.all([a, b]);

    expect(waiters).toBe(1);
    expect(readWhileWaiting).toBeUndefined();
    expect(secondRead).toBe(1);
    const [final] = await port.db.select({ attempt: tripPlans.genAttempt }).from(tripPlans).where(eq(tripPlans.id, planId));
    expect(final!.attempt).toBe(2);
  });

  it('FOR UPDATE SKIP LOCKED: a claim skips the row another transaction holds, and gets it once that one committed', async () => {
    const planId = await aPlan();
    const { tripPlans } = port.t;
    const claimable = (q: PgQueries) =>
      q.select({ id: tripPlans.id }).from(tripPlans).where(eq(tripPlans.generationStatus, 'GENERATING')).for('update', { skipLocked: true });
    const first = gate();
    const held = gate();

    const a = port.tx(async (q) => {
      expect(await claimable(q)).toEqual([{ id: planId }]);
      held.open();
      await first.opened;
    });
    await held.opened;
    const whileHeld = await port.tx(claimable);
    first.open();
    await a;

    expect(whileHeld).toEqual([]);
    expect(await port.tx(claimable)).toEqual([{ id: planId }]);
  });

  it('runs concurrent transactions on separate connections (nothing is serialised in the helper)', async () => {
    const first = gate();
    const inside: string[] = [];
    const a = port.tx(async (q) => {
      inside.push('A');
      await engine.addMember(q, 'a@example.com');
      await first.opened;
    });
    const b = port.tx(async (q) => {
      inside.push('B');
      await engine.addMember(q, 'b@example.com');
    });
    await b;
    const whileAIsOpen = [...inside];
    first.open();
    await a;

    expect(whileAIsOpen).toEqual(['A', 'B']);
    expect(await engine.run(engine.emails)).toHaveLength(2);
  });
});
