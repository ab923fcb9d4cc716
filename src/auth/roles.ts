// Who is ADMIN: decided at sign-in from the server's configuration (ADMIN_EMAILS), and kept on the
// session, never on the member: the same person may hold an ADMIN session from a real sign-in and a
// MEMBER session from dev-login, which never grants ADMIN (it proves nothing about the e-mail).
import type { components } from '../../generated/openapi.js';

export type Role = components['schemas']['MemberResponse']['role'];

/** The role of a real sign-in (an identity provider, the operator's token tool) of `email`. */
export function roleForEmail(email: string, adminEmails: readonly string[]): Role {
  return adminEmails.includes(email.trim().toLowerCase()) ? 'ADMIN' : 'MEMBER';
}

/**
 * The role of an OpenID Connect sign-in: ADMIN for a verified e-mail in `adminEmails` (an
 * unverified one proves nothing: anyone may type it at some providers), or when the ID token's
 * `adminClaim` is true, "admin" or a list containing "admin".
 */
export function roleForOidcSignIn(
  signIn: { email: string; emailVerified: boolean; claims: Record<string, unknown> },
  adminEmails: readonly string[],
  adminClaim: string | null,
): Role {
  if (signIn.emailVerified && roleForEmail(signIn.email, adminEmails) === 'ADMIN') return 'ADMIN';
  if (adminClaim === null) return 'MEMBER';
  const value = signIn.claims[adminClaim];
  const isAdmin = (v: unknown) => v === true || (typeof v === 'string' && v.toLowerCase() === 'admin');
  return isAdmin(value) || (Array.isArray(value) && value.some(isAdmin)) ? 'ADMIN' : 'MEMBER';
}
