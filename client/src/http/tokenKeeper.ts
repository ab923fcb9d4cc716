// The client's tokens, and the one reissue in flight: every caller that needs a new access token
// while a reissue runs waits for that reissue instead of starting its own (a refresh token rotates
// on each use, so a second reissue with it would be treated as theft).
import type { components } from '../generated/http/openapi.js';
import { OperationFailedError } from './operationFailedError.js';
import type { Failure, Success } from './result.js';

/** A token pair as the server issues it (devLogin, reissueToken, exchangeOidcSignInCode). */
export type TokenPair = components['schemas']['TokenResponse'];

/** Tokens the client starts with or is given (the refresh token is optional: without it, no reissue). */
export interface Tokens {
  accessToken: string;
  refreshToken?: string | null;
}

export interface TokenKeeper {
  current(): Tokens | null;
  /** replaces the tokens (the application's own; onTokens is not told) */
  set(tokens: Tokens | null): void;
  /** keeps a pair the server issued and tells onTokens */
  issued(pair: TokenPair): void;
  /** resolves once no reissue is in flight */
  settled(): Promise<void>;
  accessToken(): Promise<string>;
  reissue(): Promise<string>;
  /** the access token to use instead of `refused`, which the server found expired: reissued at most once for it */
  renewAfter(refused: string): Promise<string>;
}

export type ReissueRequest = (refreshToken: string) => Promise<Success<number, unknown> | Failure>;

export function createTokenKeeper(initial: Tokens | undefined, onTokens: ((pair: TokenPair) => void) | undefined, request: ReissueRequest): TokenKeeper {
  let tokens: Tokens | null = initial ?? null;
  let inFlight: Promise<string> | null = null;

  function reissue(): Promise<string> {
    if (inFlight) return inFlight;
    const refreshToken = tokens?.refreshToken;
    if (!refreshToken) return Promise.reject(new Error('reissue needs a refresh token: sign in first, or give the client tokens.refreshToken'));
    const started = (async () => {
      const result = await request(refreshToken);
      if (!result.ok) throw new OperationFailedError('reissueToken', result);
      // The pair is kept (issued()) by the call that sent reissueToken, as for any operation issuing tokens.
      return (result.data as TokenPair).accessToken;
    })();
    inFlight = started.finally(() => {
      inFlight = null;
    });
    return inFlight;
  }

  return {
    current: () => tokens,
    set(next) {
      tokens = next;
    },
    issued(pair) {
      tokens = { accessToken: pair.accessToken, refreshToken: pair.refreshToken };
      onTokens?.(pair);
    },
    settled: () =>
      (inFlight ?? Promise.resolve()).then(
        () => undefined,
        () => undefined,
      ),
    async accessToken() {
      if (inFlight) await inFlight.catch(() => undefined);
      if (!tokens) throw new Error('no access token: sign in first, or give the client tokens');
      return tokens.accessToken;
    },
    reissue,
    renewAfter(refused) {
      if (inFlight) return inFlight;
      // Another caller's reissue already replaced the refused token: use its result.
      if (tokens && tokens.accessToken !== refused) return Promise.resolve(tokens.accessToken);
      return reissue();
    },
  };
}
