// Every setting is validated at start. The real entry (built, as `npm start` runs it) is spawned
// with each bad setting: it exits with code 78 and exactly one line on stderr that names the
// setting, the bad value and what is accepted, never a stack trace, and it never starts listening.
// The time limit only bounds a hang.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureFreshBuild } from '../support/freshBuild.js';
import { exitOf, spawnBuiltService } from '../support/serviceProcess.js';
import { unwritableFolder } from '../support/storageFaults.js';

const HANG_LIMIT_MS = 60_000;
const cleanups: (() => void)[] = [];
beforeAll(ensureFreshBuild, 2 * HANG_LIMIT_MS);
afterAll(() => cleanups.forEach((cleanup) => cleanup()));

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trip-config-'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function refusal(env: Record<string, string>): Promise<string> {
  const child = spawnBuiltService({ DATA_DIR: tempDir(), PORT: '0', ...env });
  cleanups.push(() => child.kill('SIGKILL'));
  const exit = await exitOf(child, HANG_LIMIT_MS);
  expect(exit.stdout, 'nothing started').not.toMatch(/listening/);
  expect(exit.stderr).not.toMatch(/\n\s+at /);
  const lines = exit.stderr.split('\n').filter(Boolean);
  expect(lines, exit.stderr).toHaveLength(1);
  expect(exit.code).toBe(78);
  return (JSON.parse(lines[0]!) as { msg: string }).msg;
}

const readOnly = unwritableFolder();
if (readOnly) cleanups.push(() => readOnly.restore());
const someDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trip-config-dir-'));
cleanups.push(() => fs.rmSync(someDir, { recursive: true, force: true }));

describe.concurrent('a bad setting refuses to start with one line naming it', { timeout: 2 * HANG_LIMIT_MS }, () => {
  it.each([
    [{ PORT: '70000' }, /PORT="70000" is not accepted; expected an integer from 0 to 65535/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL="loud" is not accepted; expected fatal, error, warn, info, debug, trace, silent/],
    [{ HOST: 'my host' }, /HOST="my host" is not accepted; expected an IP address/],
    [{ HOST: '192.0.2.1' }, /HOST="192.0.2.1" is not accepted; expected an IP address of this machine.*EADDRNOTAVAIL/],
    [{ CORS_ORIGINS: '' }, /CORS_ORIGINS is set but empty; unset it for the default \(\*\) or set \* or comma-separated origins/],
    [{ NODE_ENV: 'staging' }, /NODE_ENV="staging" is not accepted; expected development, test, production/],
    [{ NODE_ENV: 'production' }, /JWT_SECRET is required when NODE_ENV=production; expected at least 32 bytes/],
    [
      { NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40), AUTH_DEV_LOGIN: 'true' },
      /AUTH_DEV_LOGIN="true" is not accepted; expected false when NODE_ENV=production/,
    ],
    [
      {
        NODE_ENV: 'production',
        JWT_SECRET: 'x'.repeat(40),
        OIDC_ISSUER: 'https://sso.example.com',
        OIDC_CLIENT_ID: 'trip-app',
        OIDC_REDIRECT_URI: 'http://127.0.0.1:8080/api/v1/auth/oidc/callback',
      },
      /OIDC_REDIRECT_URI="http:\/\/127.0.0.1:8080\/api\/v1\/auth\/oidc\/callback" is not accepted; expected an https:\/\/ URL when NODE_ENV=production/,
    ],
    [
      {
        NODE_ENV: 'production',
        JWT_SECRET: 'x'.repeat(40),
        OIDC_ISSUER: 'https://sso.example.com',
        OIDC_CLIENT_ID: 'trip-app',
        OIDC_REDIRECT_URI: 'https://trip.example.com/api/v1/auth/oidc/callback',
        OIDC_RETURN_TO_ORIGINS: 'http://app.example.com',
      },
      /OIDC_RETURN_TO_ORIGINS="http:\/\/app.example.com" is not accepted; expected https:\/\/ origins only when NODE_ENV=production/,
    ],
    [{ DATABASE_URL: '/proc/kmsg' }, /DATABASE_URL="\/proc\/kmsg" is not accepted; expected a path outside \/proc and \/sys/],
    [{ DATA_DIR: '/proc/self' }, /DATA_DIR="\/proc\/self" is not accepted; expected a path outside \/proc and \/sys/],
    [{ DATABASE_URL: someDir }, /DATABASE_URL=".*" is not accepted; expected a regular file/],
    [{ DATABASE_URL: 'postgres://db/trips' }, /JWT_SECRET is required with a PostgreSQL DATABASE_URL/],
    [
      { DATABASE_URL: 'postgres://postgres:hunter2@127.0.0.1:1/test', JWT_SECRET: 'x'.repeat(40) },
      /DATABASE_URL: the PostgreSQL database postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:1\/test cannot be used \(ECONNREFUSED/,
    ],
  ])('%j', async (env, message) => {
    expect(await refusal(env)).toMatch(message);
  });

  it('an unwritable DATA_DIR', async (context) => {
    if (!readOnly) return context.skip('cannot make a folder unwritable here');
    expect(await refusal({ DATA_DIR: path.join(readOnly.dir, 'data') })).toMatch(
      /DATA_DIR=".*" is not accepted; expected a writable folder \(.*(EACCES|EPERM|EROFS)/,
    );
  });

  it('an unwritable DATABASE_URL', async (context) => {
    if (!readOnly) return context.skip('cannot make a folder unwritable here');
    expect(await refusal({ DATABASE_URL: path.join(readOnly.dir, 'trips.sqlite'), JWT_SECRET: 'x'.repeat(40) })).toMatch(
      /DATABASE_URL=".*trips.sqlite" is not accepted; expected a writable folder \(.*(EACCES|EPERM|EROFS)/,
    );
  });

  it('a PORT somebody already listens on', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as net.AddressInfo;
    try {
      expect(await refusal({ PORT: String(port) })).toMatch(new RegExp(`PORT=${port} is not accepted; expected a port nobody listens on .*EADDRINUSE`));
    } finally {
      taken.close();
    }
  });
});
