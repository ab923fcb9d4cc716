// Sign-in, token rotation with reuse detection, logout, and the per-request authentication.
//
// Reuse grace: two tabs of one browser share a refresh token, and may both reissue with it at once;
// the one that comes second finds it rotated. Within refreshReuseGraceSeconds of that rotation it
// gets the same pair the first got, on any instance: a pair is a function of the session's row
// (member, session, refresh jti, the instant it was issued), so the row's refreshJti and rotatedAt
// are enough to sign it again, and no token is stored. After the grace, or for a token older than
// the one rotated last, a reuse is theft as before and ends the session.
import crypto from 'node:crypto';
import type { components } from '../../generated/openapi.js';
import type { DatabasePort } from '../db/databasePort.js';
import { AppError } from '../kernel/appError.js';
import type { Principal } from '../kernel/principal.js';
import type { MemberIdentity, MemberRow } from '../members/memberRepository.js';
import type { Role } from './roles.js';
import type { SessionRevocations } from './sessionRevocations.js';
import { createMemberSession, findLiveSession, findSession, revokeSession, rotateRefreshToken } from './sessionRepository.js';
import type { TokenSigner } from './tokens.js';
import { findLiveSessionOwner } from './liveSessionLookup.js';

type TokenResponse = components['schemas']['TokenResponse'];

export interface SignInInput {
  email: string;
  name?: string;
  provider: string;
  role?: Role;
  account?: MemberIdentity['account'];
}

export interface AuthService {
  /**
   * A new session for `email`, or for the provider's `account` when given (the member is created on
   * first use), with `role` (default MEMBER).
   */
  signIn(input: SignInInput): Promise<{ member: MemberRow; sessionId: string; tokens: TokenResponse }>;
  /** The token pair of a session nobody has tokens of yet (an OpenID Connect sign-in's one-time code); AUTH027 when it is gone. */
  tokensOfNewSession(sessionId: string): Promise<TokenResponse>;
  reissue(refreshToken: string): Promise<TokenResponse>;
  logout(principal: Principal): Promise<void>;
  /** Resolves an `Authorization` header value; throws AUTH011 / AUTH001 / AUTH002. */
  authenticate(authorization: string | undefined): Promise<Principal>;
  /** Resolves a bare access token (STOMP CONNECT). */
  authenticateToken(token: string): Promise<Principal>;
  /** true while the session of this principal is live (not logged out, not revoked). */
  isSessionLive(sessionId: string): Promise<boolean>;
}

/** The access token's jti, derived from its refresh token's, so that signing a pair again gives the same access token. */
function accessJtiOf(refreshJti: string): string {
  return crypto.createHash('sha256').update(`access:${refreshJti}`).digest('base64url').slice(0, 32);
}

export function createAuthService(deps: {
  db: DatabasePort;
  signer: TokenSigner;
  clock: () => number;
  accessTtlSeconds: number;
  refreshTtlSeconds: number;
  /** seconds after a rotation in which the rotated refresh token gets the same new pair (default 0: none) */
  refreshReuseGraceSeconds?: number;
  /** told about every logout and revocation, so live connections of the session end at once */
  revocations?: SessionRevocations;
}): AuthService {
  const { db, signer, clock } = deps;

  const graceMs = (deps.refreshReuseGraceSeconds ?? 0) * 1000;

  /** The pair of a session's refresh jti issued at `issuedAtMs`: the same tokens whenever it is signed (HS256 is deterministic). */
  async function pair(memberId: number, sessionId: string, refreshJti: string, issuedAtMs: number): Promise<TokenResponse> {
    const access = await signer.issue(memberId, sessionId, 'access', issuedAtMs, accessJtiOf(refreshJti));
    const refresh = await signer.issue(memberId, sessionId, 'refresh', issuedAtMs, refreshJti);
    return { accessToken: access.token, refreshToken: refresh.token, accessTokenExpiresIn: deps.accessTtlSeconds };
  }

  async function authenticateToken(token: string): Promise<Principal> {
    const now = clock();
    const claims = await signer.verify(token, 'access', now);
    const live = await findLiveSessionOwner(db, claims.sid, now);
    if (!live || String(live.memberId) !== claims.sub) throw new AppError('AUTH001');
    return { memberId: live.memberId, sessionId: claims.sid, role: live.role, expiresAt: claims.exp * 1000 };
  }

  return {
    async signIn(input) {
      const now = clock();
      const name = input.name?.trim() || input.email.split('@')[0]!.slice(0, 50);
      const sessionId = crypto.randomUUID();
      const refreshJti = crypto.randomUUID();
      const member = await createMemberSession(
        db,
        { email: input.email, name, provider: input.provider, account: input.account },
        { id: sessionId, refreshJti, role: input.role ?? 'MEMBER', createdAt: now, expiresAt: now + deps.refreshTtlSeconds * 1000 },
        now,
      );
      return { member, sessionId, tokens: await pair(member.id, sessionId, refreshJti, now) };
    },

    async tokensOfNewSession(sessionId) {
      const session = await findLiveSession(db, sessionId, clock());
      if (!session) throw new AppError('AUTH027');
      return pair(session.memberId, session.id, session.refreshJti, clock());
    },

    async reissue(refreshToken) {
      const now = clock();
      const claims = await signer.verify(refreshToken, 'refresh', now);
      const session = await findSession(db, claims.sid);
      if (!session || session.revokedAt !== null || String(session.memberId) !== claims.sub) throw new AppError('AUTH004');
      const nextJti = crypto.randomUUID();
      if (await rotateRefreshToken(db, session.id, claims.jti, nextJti, now, now + deps.refreshTtlSeconds * 1000)) {
        return pair(session.memberId, session.id, nextJti, now);
      }
      // A validly signed refresh token of this session that is no longer current. Rotated last, and
      // a moment ago: another tab's reissue with the same token won, and this one gets its pair.
      const rotated = await findSession(db, session.id);
      if (
        rotated &&
        rotated.revokedAt === null &&
        rotated.previousRefreshJti === claims.jti &&
        rotated.rotatedAt !== null &&
        now - rotated.rotatedAt < graceMs
      ) {
        return pair(rotated.memberId, rotated.id, rotated.refreshJti, rotated.rotatedAt);
      }
      // Otherwise someone is replaying it: end the whole session.
      await revokeSession(db, session.id, 'refresh-token-reuse', now);
      deps.revocations?.publish({ sessionId: session.id, reason: 'refresh-token-reuse' });
      throw new AppError('AUTH004');
    },

    async logout(principal) {
      await revokeSession(db, principal.sessionId, 'logout', clock());
      deps.revocations?.publish({ sessionId: principal.sessionId, reason: 'logout' });
    },

    // Not async: on every authenticated request, it hands on authenticateToken's promise rather than wrap it in one more.
    authenticate(authorization) {
      if (!authorization) return Promise.reject(new AppError('AUTH011'));
      const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
      if (!match?.[1]) return Promise.reject(new AppError('AUTH001'));
      return authenticateToken(match[1]);
    },

    authenticateToken,

    async isSessionLive(sessionId) {
      return (await findLiveSessionOwner(db, sessionId, clock())) !== undefined;
    },
  };
}
