// The connection under an open transaction breaks (reset by the TCP proxy in front of PostgreSQL,
// or its backend terminated): the transaction fails as a storage failure (503 COMMON503 with
// Retry-After for a client), nothing is thrown unhandled, and the broken connection leaves the pool
// instead of coming back to it, so the pool's next transaction runs on a new one. A pool of one
// connection makes a connection that is leaked or returned broken show at once.
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { databasePortOf } from '../../src/composition/openDatabase.js';
import { postgresPort, type DatabasePort } from '../../src/db/databasePort.js';
import { openPostgresDatabase, type PostgresDatabase } from '../../src/db/postgresDatabase.js';
import { storageUnavailable } from '../../src/db/storageFailure.js';
import { describeOnPostgres, freshPostgresDatabase, type FreshPostgresDatabase } from '../support/postgres.js';
import { startTcpProxy, throughProxy, type TcpProxy } from '../support/tcpProxy.js';

let fresh: FreshPostgresDatabase;
let proxy: TcpProxy;
let database: PostgresDatabase;
let port: DatabasePort;
let admin: pg.Client;
/** errors thrown to the process with nobody handling them (an 'error' event without a listener) */
const uncaught: Error[] = [];
const onUncaught = (error: Error) => uncaught.push(error);

beforeEach(async () => {
  fresh = await freshPostgresDatabase({ migrated: true });
  const server = new URL(fresh.url);
  proxy = await startTcpProxy({ host: server.hostname, port: Number(server.port || 5432) });
  database = await openPostgresDatabase(throughProxy(fresh.url, proxy), { poolMax: 1 });
  port = databasePortOf(postgresPort(database));
  admin = new pg.Client({ connectionString: fresh.url });
  await admin.connect();
  uncaught.length = 0;
  process.on('uncaughtException', onUncaught);
});

afterEach(async () => {
  process.off('uncaughtException', onUncaught);
  proxy.restore();
  await admin.end();
  await port.close();
  await proxy.close();
  await fresh.drop();
});

/** A transaction of the port that sleeps in the database until the test breaks its connection. */
const sleepingTransaction = () => port.tx((q) => q.execute(sql`SELECT pg_sleep(30)`));

/** The backend of the service sleeping in pg_sleep, once it is. */
async function sleepingBackend(): Promise<number> {
  for (let i = 0; i < 500; i++) {
    const { rows } = await admin.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND application_name = 'trip-itinerary-service' AND query LIKE '%pg_sleep%' AND state = 'active'",
      [fresh.name],
    );
    if (rows[0]) return rows[0].pid;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the transaction never reached pg_sleep');
}

/** What a client is told about `error`: its code, and whether it says when to retry. */
function toldTheClient(error: unknown) {
  const told = storageUnavailable(error);
  return told && { code: told.code, retryAfter: /^[1-9][0-9]*$/.test(told.headers?.['Retry-After'] ?? '') };
}

async function failureOf(transaction: Promise<unknown>): Promise<unknown> {
  return transaction.then(
    () => {
      throw new Error('the transaction committed');
    },
    (error: unknown) => error,
  );
}

/** The pool works: a transaction and a statement outside one, on its one connection. */
async function poolWorks(): Promise<void> {
  expect(await port.tx(async (q) => (await q.execute<{ one: number }>(sql`SELECT 1 AS one`)).rows)).toEqual([{ one: 1 }]);
  expect(await port.run(async (q) => (await q.execute<{ two: number }>(sql`SELECT 2 AS two`)).rows)).toEqual([{ two: 2 }]);
}

describeOnPostgres('a PostgreSQL transaction whose connection breaks', () => {
  it('reset (RST) while a statement of it runs: a storage failure, nothing unhandled, and the pool goes on with a new connection', async () => {
    const transaction = failureOf(sleepingTransaction());
    await sleepingBackend();
    proxy.reset();

    expect(toldTheClient(await transaction)).toEqual({ code: 'COMMON503', retryAfter: true });
    await poolWorks();
    expect(uncaught).toEqual([]);
  });

  it('reset while the transaction waits between its statements: its next statement fails the same way', async () => {
    let resume!: () => void;
    const between = new Promise<void>((resolve) => (resume = resolve));
    let opened!: () => void;
    const isOpen = new Promise<void>((resolve) => (opened = resolve));
    const transaction = failureOf(
      port.tx(async (q) => {
        await q.execute(sql`SELECT 1`);
        opened();
        await between;
        await q.execute(sql`SELECT 2`);
      }),
    );
    await isOpen;
    proxy.reset();
    // The reset reaches the idle socket of the checked-out connection before the next statement.
    await new Promise((resolve) => setTimeout(resolve, 100));
    resume();

    expect(toldTheClient(await transaction)).toEqual({ code: 'COMMON503', retryAfter: true });
    await poolWorks();
    expect(uncaught).toEqual([]);
  });

  it('reset while its BEGIN is on the way: the connection is not leaked (a pool of one would wait forever)', async () => {
    // The pool's one connection (the start's migration used it) is idle: BEGIN goes out on it at
    // once, and the latency holds it on the way.
    expect(database.pool.idleCount).toBe(1);
    proxy.latency(300);
    const transaction = failureOf(port.tx((q) => q.execute(sql`SELECT 1`)));
    await new Promise((resolve) => setTimeout(resolve, 100));
    proxy.reset();
    proxy.restore();

    expect(toldTheClient(await transaction)).toEqual({ code: 'COMMON503', retryAfter: true });
    await poolWorks();
    expect(database.pool.totalCount).toBe(1);
    expect(uncaught).toEqual([]);
  });

  it('pg_terminate_backend of its backend: a storage failure, nothing unhandled, and the pool goes on', async () => {
    const transaction = failureOf(sleepingTransaction());
    await admin.query('SELECT pg_terminate_backend($1)', [await sleepingBackend()]);

    expect(toldTheClient(await transaction)).toEqual({ code: 'COMMON503', retryAfter: true });
    await poolWorks();
    expect(uncaught).toEqual([]);
  });

  it('pg_terminate_backend of an idle pooled connection: the next transaction runs on a new one', async () => {
    await poolWorks();
    await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name = 'trip-itinerary-service'", [
      fresh.name,
    ]);
    for (let i = 0; i < 500 && database.pool.totalCount > 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));

    await poolWorks();
    expect(uncaught).toEqual([]);
  });
});
