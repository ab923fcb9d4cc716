// A local OpenID Connect provider (oidc-provider) on 127.0.0.1, for tests and `npm run idp`: a
// public client with PKCE required, the provider's development login pages (any password; the login
// names the account), and fixed accounts. Nothing leaves the machine.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration } from 'oidc-provider';

export interface LocalAccount {
  email: string;
  emailVerified: boolean;
  name: string;
  /** extra ID-token and userinfo claims, e.g. { roles: ['admin'] } */
  claims?: Record<string, unknown>;
}

export interface LocalIdentityProvider {
  issuer: string;
  clientId: string;
  /** accounts by login (= subject); tests may add and change them */
  accounts: Map<string, LocalAccount>;
  stop(): Promise<void>;
}

export const defaultAccounts: Record<string, LocalAccount> = {
  alice: { email: 'alice@example.com', emailVerified: true, name: 'Alice Kim' },
  bob: { email: 'bob@example.com', emailVerified: false, name: 'Bob Unverified' },
};

export async function startLocalIdentityProvider(options: { port?: number; clientId?: string; redirectUris: string[] }): Promise<LocalIdentityProvider> {
  const clientId = options.clientId ?? 'trip-app';
  const accounts = new Map(Object.entries(defaultAccounts).map(([login, account]) => [login, { ...account }]));
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });

  const configuration: Configuration = {
    clients: [
      {
        client_id: clientId,
        token_endpoint_auth_method: 'none',
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    pkce: { required: () => true },
    // Lifetimes set, so the provider does not print a notice for each default it uses.
    ttl: { AuthorizationCode: 60, Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600 },
    features: { devInteractions: { enabled: true } },
    // Every granted claim in the ID token too (OIDC_ADMIN_CLAIM reads the ID token).
    conformIdTokenClaims: false,
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'roles'] },
    cookies: { keys: [crypto.randomBytes(32).toString('base64url')] },
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'local', alg: 'RS256', use: 'sig' }] },
    findAccount: (_ctx, sub) => {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        claims: () => ({ sub, email: account.email, email_verified: account.emailVerified, name: account.name, ...account.claims }),
      };
    },
  };
  const provider = new Provider(issuer, configuration);
  const handle = provider.callback();
  server.on('request', (request: http.IncomingMessage, response: http.ServerResponse) => void handle(request, response));
  return {
    issuer,
    clientId,
    accounts,
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
