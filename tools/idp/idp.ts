// `npm run idp [-- --port 4020] [--service http://127.0.0.1:8080]`: a local OpenID Connect provider
// (the tests' oidc-provider set-up) for trying the sign-in in a browser without any account
// anywhere. It prints the settings to start the service with; then open the service's landing page
// and click "Sign in". Any password works; the login names the account (alice: a verified e-mail,
// bob: an unverified one). Development only: plain http, accounts in memory.
import { parseArgs } from 'node:util';
import { defaultAccounts, startLocalIdentityProvider } from './localIdentityProvider.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '4020' },
    service: { type: 'string', default: 'http://127.0.0.1:8080' },
    help: { type: 'boolean', default: false },
  },
});
const port = Number(values.port);
let service: URL | undefined;
try {
  service = new URL(values.service);
} catch {
  service = undefined;
}
if (values.help || !Number.isInteger(port) || port < 1 || port > 65535 || !service) {
  process.stderr.write('usage: npm run idp -- [--port 4020] [--service http://127.0.0.1:8080]\n');
  process.exit(values.help ? 0 : 64);
}

const redirectUri = `${service.origin}/api/v1/auth/oidc/callback`;
const idp = await startLocalIdentityProvider({ port, redirectUris: [redirectUri] });
const accounts = Object.entries(defaultAccounts)
  .map(([login, a]) => `  ${login.padEnd(6)} ${a.email}${a.emailVerified ? '' : ' (e-mail not verified: refused unless OIDC_REQUIRE_VERIFIED_EMAIL=false)'}`)
  .join('\n');
process.stdout.write(`Local OpenID Connect provider at ${idp.issuer} (client ${idp.clientId}, public, PKCE).

Start the service with:

  OIDC_ISSUER=${idp.issuer} OIDC_CLIENT_ID=${idp.clientId} OIDC_REDIRECT_URI=${redirectUri} PORT=${service.port || 80} npm start

then open ${service.origin}/ and click "Sign in". Log in with any password as:
${accounts}

Ctrl-C stops the provider.
`);

const stop = () => void idp.stop().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
