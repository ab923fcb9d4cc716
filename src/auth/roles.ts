// Who is ADMIN: decided at sign-in from the server's configuration (ADMIN_EMAILS), and kept on the
// session, never on the member: the same person may hold an ADMIN session from a real sign-in and a
// MEMBER session from dev-login, which never grants ADMIN (it proves nothing about the e-mail).
import type { components } from '../../generated/openapi.js';

export type Role = components['schemas']['MemberResponse']['role'];

/** The role of a real sign-in (an identity provider, the operator's token tool) of `email`. */
export function roleForEmail(email: string, adminEmails: readonly string[]): Role {
  return adminEmails.includes(email.trim().toLowerCase()) ? 'ADMIN' : 'MEMBER';
}
