// The OpenID Connect set-up of the tests: a local provider (tools/idp) on 127.0.0.1 and the
// settings of a service on a chosen free port, whose callback the provider accepts.
import net from 'node:net';
import { startLocalIdentityProvider, type LocalIdentityProvider } from '../../tools/idp/localIdentityProvider.js';

export interface OidcHarness {
  idp: LocalIdentityProvider;
  /** the service's origin (the port is free, for a test that starts a real server on it) */
  origin: string;
  port: number;
  /** the service's OIDC_* settings for this provider */
  env: Record<string, string>;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function startOidcHarness(): Promise<OidcHarness> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const redirectUri = `${origin}/api/v1/auth/oidc/callback`;
  const idp = await startLocalIdentityProvider({ redirectUris: [redirectUri] });
  return {
    idp,
    origin,
    port,
    env: { OIDC_ISSUER: idp.issuer, OIDC_CLIENT_ID: idp.clientId, OIDC_REDIRECT_URI: redirectUri },
    stop: () => idp.stop(),
  };
}
