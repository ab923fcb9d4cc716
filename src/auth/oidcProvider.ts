// The OpenID Connect provider as openid-client knows it after discovery. Discovery starts with the
// service and is retried in the background (1 s, 2 s, 4 s ... at most a minute apart) while the
// issuer cannot be reached: the service serves everything else meanwhile, and a sign-in asks once
// more itself before answering 503 AUTH021. Every request to the provider (discovery, and through
// the configuration the token, keys and userinfo requests) ends after OIDC_TIMEOUT_MS, so a provider
// that accepts connections and never answers holds no request longer than that.
import * as client from 'openid-client';
import type { OidcSettings } from '../config/config.js';
import { AppError } from '../kernel/appError.js';
import type { Logger } from '../kernel/logger.js';

export interface OidcProvider {
  /** the discovered configuration; throws AUTH021 while the issuer cannot be reached */
  configuration(): Promise<client.Configuration>;
  /** resolves once a discovery attempt succeeded or failed (tests, start-up logs) */
  settled(): Promise<void>;
  stop(): void;
}

const FIRST_RETRY_MS = 1000;
const LAST_RETRY_MS = 60_000;
/** Seconds the ID token's times (exp, nbf, iat) may be off from this machine's clock. */
export const ID_TOKEN_CLOCK_TOLERANCE_S = 60;

export function startOidcProvider(settings: OidcSettings, log: Logger, fetchImpl?: typeof fetch): OidcProvider {
  let discovered: client.Configuration | null = null;
  let inFlight: Promise<client.Configuration> | null = null;
  let retryMs = FIRST_RETRY_MS;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  function discover(): Promise<client.Configuration> {
    inFlight ??= (async () => {
      try {
        const options: client.DiscoveryRequestOptions = {
          // Plain http only in development and test (config.ts refuses an http issuer in production).
          execute: settings.allowInsecureIssuer ? [client.allowInsecureRequests] : [],
          // In seconds; openid-client gives the discovered configuration the same timeout for
          // every later request (token, keys, userinfo).
          timeout: settings.timeoutMs / 1000,
        };
        if (fetchImpl) options[client.customFetch] = (url, init) => fetchImpl(url, init);
        const authentication = settings.clientSecret ? client.ClientSecretPost(settings.clientSecret) : client.None();
        const metadata: Partial<client.ClientMetadata> = { [client.clockTolerance]: ID_TOKEN_CLOCK_TOLERANCE_S };
        if (settings.clientSecret) metadata.client_secret = settings.clientSecret;
        const configuration = await client.discovery(new URL(settings.issuer), settings.clientId, metadata, authentication, options);
        // Also check the ID token's signature against the provider's keys (openid-client skips it
        // by default for a token that came straight from the token endpoint over TLS).
        client.enableNonRepudiationChecks(configuration);
        discovered = configuration;
        log.info({ issuer: settings.issuer }, 'OpenID Connect provider discovered');
        return configuration;
      } finally {
        inFlight = null;
      }
    })();
    return inFlight;
  }

  function retryLater(error: unknown): void {
    log.warn(
      { issuer: settings.issuer, err: error, retryInMs: retryMs },
      `OIDC_ISSUER ${settings.issuer} cannot be reached (${describe(error)}); sign-in answers 503 AUTH021 until it can, retrying in ${retryMs / 1000} s`,
    );
    timer = setTimeout(() => {
      if (stopped || discovered) return;
      discover().catch(retryLater);
    }, retryMs);
    timer.unref();
    retryMs = Math.min(retryMs * 2, LAST_RETRY_MS);
  }

  const firstAttempt = discover().then(
    () => undefined,
    (error: unknown) => retryLater(error),
  );

  return {
    async configuration() {
      if (discovered) return discovered;
      try {
        return await discover();
      } catch (error) {
        log.warn({ issuer: settings.issuer, err: error }, 'OpenID Connect provider still unreachable');
        throw providerUnreachable();
      }
    },
    settled: () => firstAttempt,
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

export function providerUnreachable(): AppError {
  return new AppError('AUTH021', undefined, { headers: { 'Retry-After': '30' } });
}

function describe(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return error instanceof Error ? `${error.message}${cause}` : String(error);
}
