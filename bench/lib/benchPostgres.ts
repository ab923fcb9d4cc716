// The PostgreSQL database the benchmark measures on: a fresh one on BENCH_POSTGRES_URL's server
// (default: the local server, trust auth), dropped afterwards; or why there is none.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export type BenchPostgres = { available: true; url: string; drop(): Promise<void> } | { available: false; reason: string };

async function onAdmin<T>(adminUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function benchPostgres(adminUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test'): Promise<BenchPostgres> {
  const name = `trip_bench_${randomBytes(4).toString('hex')}`;
  try {
    await onAdmin(adminUrl, (client) => client.query(`CREATE DATABASE "${name}"`));
  } catch (error) {
    return { available: false, reason: `PostgreSQL at ${new URL(adminUrl).host} did not answer: ${(error as Error).message}` };
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    available: true,
    url: url.toString(),
    drop: () => onAdmin(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}
