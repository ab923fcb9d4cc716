// OpenID Connect sign-in, authorization code + PKCE (openapi.yaml: startOidcSignIn,
// completeOidcSignIn, exchangeOidcSignInCode). The pending sign-in (state, nonce, PKCE verifier,
// returnTo) is a database row found by the hash of a random cookie, so any instance can complete it
// and only the browser that started it can; anyone may start one, so they are bounded per client
// address and in total. The tokens never travel in a URL: the callback hands the browser a one-time
// code in the fragment, which it exchanges for the token pair by POST. That code is bound to the
// page that started the sign-in (the verifier of its codeChallenge, or else the browser's cookie):
// someone else's code, put into a link, signs nobody in as them (login CSRF).
import crypto from 'node:crypto';
import path from 'node:path';
import * as client from 'openid-client';
import type { components } from '../../generated/openapi.js';
import { schemaValidators } from '../../generated/validators.js';
import type { OidcSettings } from '../config/config.js';
import type { DatabasePort } from '../db/databasePort.js';
import { AppError } from '../kernel/appError.js';
import { operationPath } from '../kernel/operationPath.js';
import type { Logger } from '../kernel/logger.js';
import type { AuthService } from './authService.js';
import { signInFailure } from './oidcFailures.js';
import { savePendingLogin, takePendingLogin, type PendingLogin, type PendingLoginRefusal } from './oidcPendingLoginRepository.js';
import { ID_TOKEN_CLOCK_TOLERANCE_S, type OidcProvider } from './oidcProvider.js';
import { resolveReturnTo } from './oidcReturnTo.js';
import { saveSignInCode, takeSignInCode } from './oidcSignInCodeRepository.js';
import { roleForOidcSignIn } from './roles.js';

type TokenResponse = components['schemas']['TokenResponse'];

export const OIDC_LOGIN_COOKIE = 'oidc_login';
// The pending sign-in's cookie goes only to the sign-in operations (start, callback and exchange share this folder).
const COOKIE_PATH = path.posix.dirname(operationPath('completeOidcSignIn', {}));
const PENDING_LOGIN_MS = 10 * 60_000;
const SIGN_IN_CODE_MS = 60_000;
const NAME_MAX = 50;
const isEmail = schemaValidators.openapi.DevLoginRequest;

export interface CallbackParameters {
  code?: string;
  state?: string;
  iss?: string;
  error?: string;
}

export interface OidcSignIn {
  /** the name of the cookie that ties a pending sign-in to the browser (the callback reads it) */
  readonly loginCookie: string;
  /**
   * The provider's authorization URL and the cookie tying the pending sign-in to the browser;
   * 429 COMMON429 when `clientAddress` has too many sign-ins pending, 503 AUTH030 when everyone has.
   */
  start(request: { returnTo?: string; codeChallenge?: string }, clientAddress: string): Promise<{ location: string; setCookie: string }>;
  /** signs the member in; the URL to send the browser to (returnTo#oidcCode=…) and the cookie, kept for the exchange */
  complete(cookie: string | undefined, parameters: CallbackParameters, log: Logger): Promise<{ location: string; setCookie: string }>;
  /**
   * The token pair of a one-time code and the cookie's removal; AUTH027 when the code is unknown,
   * used or expired, AUTH029 when neither `codeVerifier` nor `cookie` is what it is bound to.
   */
  exchange(request: { code: string; codeVerifier?: string }, cookie: string | undefined): Promise<{ tokens: TokenResponse; setCookie: string }>;
}

const sha256 = (value: string) => crypto.createHash('sha256').update(value).digest('base64url');

export interface OidcSignInDeps {
  settings: OidcSettings;
  adminEmails: readonly string[];
  provider: OidcProvider;
  db: DatabasePort;
  auth: AuthService;
  clock: () => number;
}

/** What every step of a sign-in works with: the deps, and whether the cookie must be Secure. */
interface SignInContext extends OidcSignInDeps {
  readonly secure: boolean;
}

/** What the provider says about the person, once the code is exchanged and the ID token checked. */
interface ProviderIdentity {
  claims: Record<string, unknown> & { iss: string; sub: string };
  profile: Record<string, unknown>;
}

export function createOidcSignIn(deps: OidcSignInDeps): OidcSignIn {
  const context: SignInContext = { ...deps, secure: new URL(deps.settings.redirectUri).protocol === 'https:' };
  return {
    loginCookie: OIDC_LOGIN_COOKIE,
    start: (request, clientAddress) => startSignIn(context, request, clientAddress),
    complete: (cookieValue, parameters, log) => completeSignIn(context, cookieValue, parameters, log),
    exchange: (request, cookieValue) => exchangeSignInCode(context, request, cookieValue),
  };
}

function loginCookieHeader({ secure }: SignInContext, value: string, maxAgeSeconds: number): string {
  return `${OIDC_LOGIN_COOKIE}=${value}; Path=${COOKIE_PATH}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

async function startSignIn(
  context: SignInContext,
  { returnTo, codeChallenge }: { returnTo?: string; codeChallenge?: string },
  clientAddress: string,
): Promise<{ location: string; setCookie: string }> {
  const { settings, provider, db, clock } = context;
  const back = resolveReturnTo(returnTo, settings);
  const configuration = await provider.configuration();
  const browserKey = crypto.randomBytes(32).toString('base64url');
  const login: PendingLogin = {
    id: sha256(browserKey),
    state: client.randomState(),
    nonce: client.randomNonce(),
    codeVerifier: client.randomPKCECodeVerifier(),
    returnTo: back,
    clientKey: sha256(clientAddress).slice(0, 22),
    codeChallenge: codeChallenge ?? null,
    createdAt: clock(),
    expiresAt: clock() + PENDING_LOGIN_MS,
  };
  const location = await authorizationUrl(configuration, settings, login);
  const refusal = await savePendingLogin(db, login, { perClient: settings.pendingSignIns.perAddress, total: settings.pendingSignIns.total }, clock());
  if (refusal) throw tooManyPending(refusal, clock());
  return { location: location.href, setCookie: loginCookieHeader(context, browserKey, PENDING_LOGIN_MS / 1000) };
}

/** Where the browser goes to sign in at the provider. */
async function authorizationUrl(configuration: client.Configuration, settings: OidcSettings, login: PendingLogin): Promise<URL> {
  return client.buildAuthorizationUrl(configuration, {
    redirect_uri: settings.redirectUri,
    scope: settings.scopes,
    response_type: 'code',
    code_challenge: await client.calculatePKCECodeChallenge(login.codeVerifier),
    code_challenge_method: 'S256',
    state: login.state,
    nonce: login.nonce,
  });
}

async function completeSignIn(
  context: SignInContext,
  cookieValue: string | undefined,
  parameters: CallbackParameters,
  log: Logger,
): Promise<{ location: string; setCookie: string }> {
  const { db, clock } = context;
  const login = await takeLogin(context, cookieValue, parameters.state);
  const { claims, profile } = await identifyAtCallback(context, parameters, login, log);
  const { email, emailVerified } = usableEmail(context.settings, profile);
  const role = roleForOidcSignIn({ email, emailVerified, claims }, context.adminEmails, context.settings.adminClaim);
  const { member, sessionId } = await context.auth.signIn({
    email,
    name: displayName(profile, email),
    provider: 'OIDC',
    role,
    account: { issuer: claims.iss, subject: claims.sub },
  });

  const code = crypto.randomBytes(32).toString('base64url');
  const binding = { codeChallenge: login.codeChallenge, browserKeyHash: login.id };
  await saveSignInCode(db, { id: sha256(code), sessionId, ...binding, createdAt: clock(), expiresAt: clock() + SIGN_IN_CODE_MS }, clock());
  log.info({ memberId: member.id, role, issuer: claims.iss }, 'signed in with OpenID Connect');
  // The pending sign-in is used up; its cookie now ties the code to this browser until the exchange.
  return { location: `${login.returnTo}#oidcCode=${code}`, setCookie: loginCookieHeader(context, cookieValue!, SIGN_IN_CODE_MS / 1000) };
}

// Only a callback with the sign-in's state takes it: a forged one leaves it for the real callback.
async function takeLogin({ db, clock }: SignInContext, cookieValue: string | undefined, state: string | undefined): Promise<PendingLogin> {
  const login = cookieValue && state ? await takePendingLogin(db, sha256(cookieValue), state) : undefined;
  if (!login || login.expiresAt <= clock()) throw new AppError('AUTH022');
  return login;
}

/** The provider's refusal, or the code exchanged for who signed in; a failure the sign-in explains is logged and thrown as such. */
async function identifyAtCallback(context: SignInContext, parameters: CallbackParameters, login: PendingLogin, log: Logger): Promise<ProviderIdentity> {
  try {
    if (parameters.error !== undefined) {
      const error = /^[\w.-]{1,64}$/.test(parameters.error) ? parameters.error : 'error';
      throw new AppError('AUTH026', `The identity provider refused the sign-in (${error}).`);
    }
    return await identify(context.settings, await context.provider.configuration(), parameters, login);
  } catch (error: unknown) {
    const failure = signInFailure(error);
    if (!failure) throw error;
    log.warn({ err: error, code: failure.code }, 'OpenID Connect sign-in refused');
    throw failure;
  }
}

/** The code exchange: the provider's tokens for this callback, the ID token's claims checked, and the userinfo. */
async function identify(
  settings: OidcSettings,
  configuration: client.Configuration,
  parameters: CallbackParameters,
  login: { state: string; nonce: string; codeVerifier: string },
): Promise<ProviderIdentity> {
  const callbackUrl = new URL(settings.redirectUri);
  for (const name of ['code', 'state', 'iss'] as const) if (parameters[name] !== undefined) callbackUrl.searchParams.set(name, parameters[name]);
  const tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
    pkceCodeVerifier: login.codeVerifier,
    expectedState: login.state,
    expectedNonce: login.nonce,
    idTokenExpected: true,
  });
  const claims = tokens.claims()!;
  // openid-client checks exp and nbf, not an iat in the future: a token from a provider whose clock
  // is ahead (or one minted to be used later). Checked against the clock openid-client checks with.
  if (claims.iat > Date.now() / 1000 + ID_TOKEN_CLOCK_TOLERANCE_S) {
    throw new AppError('AUTH024', 'The ID token of the identity provider was issued in the future.');
  }
  // Providers put e-mail and name in the ID token only when asked; userinfo always has them.
  const userinfo = configuration.serverMetadata().userinfo_endpoint ? await client.fetchUserInfo(configuration, tokens.access_token, claims.sub) : {};
  return { claims, profile: { ...claims, ...userinfo } };
}

/** The e-mail address the member signs in with; AUTH025 when there is none, or it is unverified and must not be. */
function usableEmail(settings: OidcSettings, profile: Record<string, unknown>): { email: string; emailVerified: boolean } {
  const email = typeof profile.email === 'string' ? profile.email.trim().toLowerCase() : '';
  if (!isEmailAddress(email)) throw new AppError('AUTH025', 'The identity provider gave no usable e-mail address for this account.');
  // Some providers send the flag as the string "true".
  const emailVerified = profile.email_verified === true || profile.email_verified === 'true';
  if (settings.requireVerifiedEmail && !emailVerified) throw new AppError('AUTH025');
  return { email, emailVerified };
}

async function exchangeSignInCode(
  context: SignInContext,
  { code, codeVerifier }: { code: string; codeVerifier?: string },
  cookieValue: string | undefined,
): Promise<{ tokens: TokenResponse; setCookie: string }> {
  const { db, auth, clock } = context;
  const entry = await takeSignInCode(
    db,
    sha256(code),
    {
      codeChallenge: codeVerifier === undefined ? null : sha256(codeVerifier),
      browserKeyHash: cookieValue ? sha256(cookieValue) : null,
    },
    clock(),
  );
  if (entry === 'unknown') throw new AppError('AUTH027');
  if (entry === 'not-bound') throw new AppError('AUTH029');
  return { tokens: await auth.tokensOfNewSession(entry.sessionId), setCookie: loginCookieHeader(context, '', 0) };
}

/** 429 COMMON429 (this client) or 503 AUTH030 (everyone), with the seconds until a place frees up. */
function tooManyPending(refusal: PendingLoginRefusal, nowMs: number): AppError {
  const retryAfter = String(Math.min(Math.max(1, Math.ceil((refusal.oldestExpiresAt - nowMs) / 1000)), PENDING_LOGIN_MS / 1000));
  if (refusal.refused === 'total') return new AppError('AUTH030', undefined, { headers: { 'Retry-After': retryAfter } });
  return new AppError('COMMON429', `Too many sign-ins started from this address are pending; retry in ${retryAfter} seconds.`, {
    headers: { 'Retry-After': retryAfter },
  });
}

/** The spec's rule for a member's e-mail (format and length, as dev-login checks it), so getMe can answer with it. */
const isEmailAddress = (email: string) => isEmail({ email });

/** The provider's name for the person, at most 50 characters; else the e-mail's local part. */
function displayName(profile: Record<string, unknown>, email: string): string {
  const given = [profile.name, profile.preferred_username, profile.nickname].find((v): v is string => typeof v === 'string' && v.trim() !== '');
  return [...(given?.trim() ?? email.split('@')[0]!)].slice(0, NAME_MAX).join('');
}
