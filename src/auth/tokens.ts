// Signs and verifies the service's JWTs with hono/jwt, HS256 pinned (RFC 8725): claims sub (member
// id), sid (session id), typ (access | refresh), jti, iat, exp. A refresh token never passes as an
// access token and vice versa.
import crypto from 'node:crypto';
import { sign, verify } from 'hono/jwt';
import { JwtTokenExpired } from 'hono/utils/jwt/types';
import { AppError } from '../kernel/appError.js';

export type TokenType = 'access' | 'refresh';

export interface TokenClaims {
  sub: string;
  sid: string;
  typ: TokenType;
  jti: string;
  iat: number;
  exp: number;
}

export interface TokenSigner {
  issue(memberId: number, sessionId: string, type: TokenType, nowMs: number, jti?: string): Promise<{ token: string; claims: TokenClaims }>;
  /** Throws AppError AUTH001 (invalid, wrong type) or AUTH002 (expired, access tokens only). */
  verify(token: string, type: TokenType, nowMs: number): Promise<TokenClaims>;
}

export function createTokenSigner(secret: string, ttlSeconds: Record<TokenType, number>): TokenSigner {
  // Imported once: hono/jwt would import a string secret again on every sign and verify.
  const key = crypto.webcrypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
  // Verified tokens are remembered, so the HMAC (WebCrypto, asynchronous and slow per call) runs once
  // per token rather than on every request. Only tokens that passed verification get in; expiry and
  // type are still checked on every use.
  const verified = new Map<string, Record<string, unknown>>();
  const VERIFIED_LIMIT = 10_000;
  return {
    async issue(memberId, sessionId, type, nowMs, jti = crypto.randomUUID()) {
      const iat = Math.floor(nowMs / 1000);
      const claims: TokenClaims = { sub: String(memberId), sid: sessionId, typ: type, jti, iat, exp: iat + ttlSeconds[type] };
      return { token: await sign({ ...claims }, await key, 'HS256'), claims };
    },
    async verify(token, type, nowMs) {
      const invalid = () => (type === 'access' ? new AppError('AUTH001') : new AppError('AUTH004'));
      let payload = verified.get(token);
      if (!payload) {
        try {
          // exp is checked below against the injected clock, so tests can move time.
          payload = await verify(token, await key, { alg: 'HS256', exp: false, iat: false, nbf: false });
        } catch (error) {
          if (error instanceof JwtTokenExpired && type === 'access') throw new AppError('AUTH002');
          throw invalid();
        }
        if (verified.size >= VERIFIED_LIMIT) verified.delete(verified.keys().next().value!);
        verified.set(token, payload);
      }
      const { sub, sid, typ, jti, iat, exp } = payload;
      if (typ !== type || typeof sub !== 'string' || !/^[1-9]\d*$/.test(sub) || typeof sid !== 'string' || typeof jti !== 'string') throw invalid();
      if (typeof iat !== 'number' || typeof exp !== 'number') throw invalid();
      if (exp * 1000 <= nowMs) throw type === 'access' ? new AppError('AUTH002') : invalid();
      return { sub, sid, typ: type, jti, iat, exp };
    },
  };
}
