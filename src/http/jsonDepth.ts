// How deep a JSON text nests, found by one pass over the text before it is parsed. A body nested
// 100,000 levels deep parses fine in V8, but every recursive walk over the value afterwards
// (validation, error rendering, JSON.stringify) can overflow the stack; refusing it up front with
// COMMON002 (openapi.yaml, BadRequest) keeps all of them safe.

/** Arrays and objects nested deeper than this are refused (openapi.yaml, info.description). */
export const MAX_JSON_DEPTH = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/** true when `text` opens more than `maxDepth` arrays or objects inside each other. */
export function nestsDeeperThan(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      if (++depth > maxDepth) return true;
    } else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) {
      depth--;
    }
  }
  return false;
}
