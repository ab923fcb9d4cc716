// Without PostgreSQL, `npm test` still passes: the PostgreSQL suites are skipped and one line says
// why; under CI=true (set by .ci/run) the run fails instead (test/support/postgresGlobalSetup.ts).
// Each case runs vitest on one PostgreSQL test file against a port where nothing listens.
import { spawnSync } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

async function aClosedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function vitestWithoutPostgres(ci: boolean) {
  const env: NodeJS.ProcessEnv = { ...process.env, TEST_POSTGRES_URL: `postgres://postgres@127.0.0.1:${await aClosedPort()}/test`, NO_COLOR: '1' };
  delete env.CI;
  if (ci) env.CI = 'true';
  const run = spawnSync(path.join(root, 'node_modules/.bin/vitest'), ['run', 'test/db/postgresDatabase.test.ts'], {
    cwd: root,
    env,
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

describe('a run without PostgreSQL', () => {
  it('skips the PostgreSQL tests, says so in one line, and passes', async () => {
    const { status, output } = await vitestWithoutPostgres(false);
    expect(output.match(/PostgreSQL tests skipped: .*ECONNREFUSED/g)).toHaveLength(1);
    // every test of the file skipped, none run
    expect(output).toMatch(/Tests\s+(\d+) skipped \(\1\)/);
    expect(status).toBe(0);
  });

  it('fails under CI=true, saying PostgreSQL is required', async () => {
    const { status, output } = await vitestWithoutPostgres(true);
    expect(output).toMatch(/PostgreSQL does not answer at 127\.0\.0\.1:\d+ \(.*ECONNREFUSED.*\); CI requires it/);
    expect(output).not.toMatch(/PostgreSQL tests skipped: nothing answers at 127/);
    expect(status).not.toBe(0);
  });
});
