// JSON pointers (RFC 6901): `/themes/2`, or as a URI fragment `#/components/schemas/Id`, and the
// `$ref`s of a spec that are written with them. The one place that knows a token's `~1` is `/` and
// `~0` is `~` (in that order).

import { isJsonObject, objectOrEmpty, type Json, type JsonObject } from './json.js';

/** The reference tokens of a pointer: `''` → `[]`, `/a~1b/0` → `['a/b', '0']`; a fragment is percent-decoded first. */
export function pointerTokens(pointer: string): string[] {
  const text = pointer.startsWith('#') ? decodeURIComponent(pointer.slice(1)) : pointer;
  if (text === '') return [];
  if (!text.startsWith('/')) throw new Error(`not a JSON pointer: ${pointer}`);
  return text
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The value a pointer points at in `root`, or undefined when there is none. */
export function valueAtPointer(root: unknown, pointer: string): unknown {
  let node: unknown = root;
  for (const token of pointerTokens(pointer)) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, token)) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}

/** `node`, or what its `$ref` (and the ref found there, and so on) points at in `doc`. */
export function resolveRef(doc: Json, node: Json | undefined): Json | undefined {
  let current = node;
  const seen = new Set<string>();
  while (isJsonObject(current) && typeof current.$ref === 'string') {
    const ref = current.$ref;
    if (!ref.startsWith('#')) throw new Error(`unexpected cross-file $ref ${ref} (bundle the document first)`);
    if (seen.has(ref)) throw new Error(`$ref cycle at ${ref}`);
    seen.add(ref);
    // A pointer into JSON finds JSON.
    current = valueAtPointer(doc, ref) as Json | undefined;
    if (current === undefined) throw new Error(`cannot resolve ${ref}`);
  }
  return current;
}

/** What `node` resolves to, as an object; an empty one when that is not an object (a malformed or missing part). */
export const resolveObject = (doc: Json, node: Json | undefined): JsonObject => objectOrEmpty(resolveRef(doc, node));

/** The name in a `$ref` to a component of `kind`: `#/components/schemas/TripPlan` → `TripPlan`; null for any other ref. */
export function componentName(ref: unknown, kind: string): string | null {
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return null;
  const tokens = pointerTokens(ref);
  return tokens.length === 3 && tokens[0] === 'components' && tokens[1] === kind ? tokens[2]! : null;
}
