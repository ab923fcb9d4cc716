// Where a sign-in may send the browser back to: a path of this service, or a URL of an allowed
// origin (OIDC_RETURN_TO_ORIGINS and the redirect URI's). Anything else would make the sign-in an
// open redirect that carries a sign-in code to a stranger.
import type { OidcSettings } from '../config/config.js';
import { invalidField } from '../kernel/appError.js';

/** The longest returnTo kept with a pending sign-in, once resolved and percent-encoded (it is stored per sign-in). */
export const RETURN_TO_MAX_LENGTH = 2048;

/** The absolute URL to return to; throws COMMON001 on `query.returnTo` otherwise. */
export function resolveReturnTo(returnTo: string | undefined, settings: OidcSettings): string {
  const home = new URL(settings.redirectUri).origin;
  if (returnTo === undefined) return `${home}/`;
  const refused = (why: string) => invalidField('query.returnTo', returnTo, why);
  let url: URL;
  if (returnTo.startsWith('/')) {
    // "//host" and "/\host" are other hosts to a browser, not paths.
    if (/^\/[/\\]/.test(returnTo)) throw refused('must be a path of this service or a URL of an allowed origin');
    url = new URL(returnTo, home);
  } else {
    try {
      url = new URL(returnTo);
    } catch {
      throw refused('must be a path of this service or a URL of an allowed origin');
    }
  }
  if (!settings.returnToOrigins.includes(url.origin)) throw refused(`must be on one of the allowed origins: ${settings.returnToOrigins.join(', ')}`);
  if (url.hash) throw refused('must not have a fragment (the sign-in code goes there)');
  if (url.href.length > RETURN_TO_MAX_LENGTH) throw refused(`must be at most ${RETURN_TO_MAX_LENGTH} characters once resolved and percent-encoded`);
  return url.href;
}
