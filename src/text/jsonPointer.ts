// JSON pointers (RFC 6901): `/themes/2`, or as a URI fragment `#/components/schemas/Id`. The one
// place that knows a token's `~1` is `/` and `~0` is `~` (in that order).

/** The reference tokens of a pointer: `''` → `[]`, `/a~1b/0` → `['a/b', '0']`; a fragment is percent-decoded first. */
export function pointerTokens(pointer: string): string[] {
  const text = pointer.startsWith('#') ? decodeURIComponent(pointer.slice(1)) : pointer;
  if (text === '') return [];
  if (!text.startsWith('/')) throw new Error(`not a JSON pointer: ${pointer}`);
  return text.slice(1).split('/').map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
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
