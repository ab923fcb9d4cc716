// `npm run token -- --email a@example.com [--name Min-ji] [--admin]`: prints a token pair for a
// member of the configured database (creating the member if needed), in any environment. It signs
// with the same secret the server uses (JWT_SECRET, or the one kept in the data folder). The
// operator's own sign-in: the session is ADMIN with --admin or when the address is in ADMIN_EMAILS.
import { parseArgs } from 'node:util';
import { createAuthService } from '../src/auth/authService.js';
import { resolveJwtSecret } from '../src/auth/jwtSecret.js';
import { roleForEmail } from '../src/auth/roles.js';
import { createTokenSigner } from '../src/auth/tokens.js';
import { ConfigError, loadConfig } from '../src/config/config.js';
import { openDatabasePort } from '../src/composition/openDatabase.js';

const { values } = parseArgs({
  options: { email: { type: 'string' }, name: { type: 'string' }, admin: { type: 'boolean', default: false }, help: { type: 'boolean', default: false } },
});
if (values.help || !values.email || !/^[^@\s]+@[^@\s]+$/.test(values.email)) {
  process.stderr.write('usage: npm run token -- --email someone@example.com [--name "Display Name"] [--admin]\n');
  process.exit(values.help ? 0 : 64);
}

try {
  const config = loadConfig();
  const database = await openDatabasePort(config.database);
  const signer = createTokenSigner(resolveJwtSecret(config), { access: config.accessTokenTtlSeconds, refresh: config.refreshTokenTtlSeconds });
  const auth = createAuthService({
    db: database,
    signer,
    clock: Date.now,
    accessTtlSeconds: config.accessTokenTtlSeconds,
    refreshTtlSeconds: config.refreshTokenTtlSeconds,
  });
  const role = values.admin ? 'ADMIN' : roleForEmail(values.email, config.adminEmails);
  const { member, tokens } = await auth.signIn({ email: values.email, name: values.name, provider: 'CLI', role });
  await database.close();
  process.stdout.write(`${JSON.stringify({ memberId: member.id, email: member.email, role, ...tokens }, null, 2)}\n`);
} catch (error) {
  if (error instanceof ConfigError) {
    process.stderr.write(`configuration: ${error.message}\n`);
    process.exit(78);
  }
  throw error;
}
