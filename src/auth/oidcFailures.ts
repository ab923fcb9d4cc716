// What a failed step of the provider's answer means for the person signing in: one of the
// documented codes (openapi.yaml, completeOidcSignIn). openid-client throws a TypeError when the
// provider cannot be reached, its own errors (ClientError, with oauth4webapi's code) when an answer
// fails a check, and the provider's OAuth errors as ResponseBodyError / AuthorizationResponseError.
import * as client from 'openid-client';
import { AppError } from '../kernel/appError.js';
import { providerUnreachable } from './oidcProvider.js';

const unreachableCodes = new Set(['OAUTH_TIMEOUT', 'OAUTH_ABORT', 'OAUTH_RESPONSE_IS_NOT_CONFORM', 'OAUTH_RESPONSE_IS_NOT_JSON']);

/** The AppError for `error`, or null when it is not the provider's or openid-client's (a bug: 500). */
export function signInFailure(error: unknown): AppError | null {
  if (error instanceof AppError) return error;
  if (error instanceof TypeError) return providerUnreachable();
  if (error instanceof client.AuthorizationResponseError) return new AppError('AUTH026');
  if (error instanceof client.ResponseBodyError) return error.status >= 500 ? providerUnreachable() : new AppError('AUTH023');
  if (error instanceof client.ClientError) {
    if (error.code !== undefined && unreachableCodes.has(error.code)) return providerUnreachable();
    if (error.code === 'OAUTH_JWT_CLAIM_COMPARISON_FAILED' && claimOf(error) === 'nonce') return new AppError('AUTH023');
    return new AppError('AUTH024');
  }
  return null;
}

/** The claim a failed comparison names (openid-client wraps oauth4webapi's error, whose cause names it). */
function claimOf(error: Error): unknown {
  const inner = error.cause instanceof Error ? error.cause.cause : undefined;
  return inner && typeof inner === 'object' && 'claim' in inner ? inner.claim : undefined;
}
