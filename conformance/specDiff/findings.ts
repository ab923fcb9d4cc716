// How a value-level rule reports: `judge` turns "this change narrows (or widens) what is accepted"
// into breaking or not for the direction at hand, so each rule is written once for requests.
import type { Direction, Severity } from './change.js';

import type { Json } from '../specModel/index.js';

export type Finding = (severity: Severity, rule: string, reason: string) => void;

// undefined for an absent value (JSON.stringify's answer), so callers can say `?? 'none'`.
export const show = (value: Json | undefined): string | undefined => JSON.stringify(value);

/** What a breaking change of this direction does to clients. */
export const consequenceOf = (direction: Direction): string =>
  direction === 'request' ? 'requests valid before are now rejected' : 'clients relying on the old schema may get values they do not expect';

// Reports one change that makes the accepted set smaller (`narrowed`) or larger (widened).
// `why` replaces the generic consequence when a rule knows a more precise one.
export function judge(direction: Direction, narrowed: boolean, find: Finding, rule: string, reason: string, why?: string): void {
  const breaking = direction === 'request' ? narrowed : !narrowed;
  const consequence = breaking ? (why ?? consequenceOf(direction)) : '';
  find(breaking ? 'breaking' : 'non-breaking', `${direction}-${rule}`, consequence ? `${reason}; ${consequence}` : reason);
}
