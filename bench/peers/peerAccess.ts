// Who is calling, for the Fastify peer, as the service decides it (src/auth/authService.ts,
// tokens.ts): an HS256 access token verified by fast-jwt (no cache: the HMAC runs on every request),
// its claims checked as the service checks them (typ access, a member id in sub, session id, jti,
// iat, exp), then the live-session lookup on every request (the service's SQL text,
// liveSessionLookup.ts, as the engine's raw statement: peerDatabase.ts), so a logout takes effect at once.
import { createVerifier, TokenError } from 'fast-jwt';
import type { PeerDatabase } from './peerDatabase.js';

export type Caller = { memberId: number } | { error: 'AUTH011' | 'AUTH001' | 'AUTH002' };

export function peerAccess(database: PeerDatabase, jwtSecret: string): (authorization: string | undefined) => Promise<Caller> {
  const verify = createVerifier({ key: jwtSecret, algorithms: ['HS256'], cache: false });

  function claimsOf(token: string): Record<string, unknown> | 'AUTH001' | 'AUTH002' {
    try {
      return verify(token) as Record<string, unknown>;
    } catch (error) {
      return error instanceof TokenError && error.code === TokenError.codes.expired ? 'AUTH002' : 'AUTH001';
    }
  }

  return async (authorization) => {
    if (!authorization) return { error: 'AUTH011' };
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match?.[1]) return { error: 'AUTH001' };
    const claims = claimsOf(match[1]);
    if (typeof claims === 'string') return { error: claims };
    const { sub, sid, typ, jti, iat, exp } = claims;
    if (typ !== 'access' || typeof sub !== 'string' || !/^[1-9]\d*$/.test(sub) || typeof sid !== 'string' || typeof jti !== 'string')
      return { error: 'AUTH001' };
    if (typeof iat !== 'number' || typeof exp !== 'number') return { error: 'AUTH001' };
    const now = Date.now();
    if (exp * 1000 <= now) return { error: 'AUTH002' };
    const owner = await database.liveSessionOwner(sid, now);
    if (owner === undefined || String(owner) !== sub) return { error: 'AUTH001' };
    return { memberId: owner };
  };
}
