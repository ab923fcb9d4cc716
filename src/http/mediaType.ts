// Content negotiation for operations that document several media types for one response (RFC 9110
// §12.5.1). The first offered type is the default: a missing Accept, `*/*`, or an Accept naming
// none of the offered types gets it (the server may ignore Accept rather than answer 406).

interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

function parseAccept(accept: string): MediaRange[] {
  return accept.split(',').flatMap((part) => {
    const [range = '', ...params] = part.split(';').map((s) => s.trim());
    const [type, subtype] = range.toLowerCase().split('/');
    if (!type || !subtype) return [];
    const qParam = params.find((p) => p.toLowerCase().startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    return Number.isFinite(q) && q >= 0 && q <= 1 ? [{ type, subtype, q }] : [];
  });
}

/** How well a range names a type: 2 exactly, 1 as `type/*`, 0 as `*\/*`, -1 not at all. */
function specificity(range: MediaRange, type: string, subtype: string): number {
  if (range.type === type && range.subtype === subtype) return 2;
  if (range.type === type && range.subtype === '*') return 1;
  if (range.type === '*' && range.subtype === '*') return 0;
  return -1;
}

/**
 * The offered media type the client prefers: highest q of its most specific matching range; on a
 * tie, the type the client named more specifically, then the earlier offered one.
 */
export function preferredMediaType<T extends string>(accept: string | undefined, offered: readonly [T, ...T[]]): T {
  const ranges = parseAccept(accept ?? '');
  let best = { type: offered[0], q: 0, specificity: -1 };
  for (const candidate of offered) {
    const [type = '', subtype = ''] = candidate.toLowerCase().split('/');
    let match = { q: 0, specificity: -1 };
    for (const range of ranges) {
      const s = specificity(range, type, subtype);
      if (s > match.specificity) match = { q: range.q, specificity: s };
    }
    if (match.q > best.q || (match.q === best.q && match.q > 0 && match.specificity > best.specificity)) best = { type: candidate, ...match };
  }
  return best.type;
}
