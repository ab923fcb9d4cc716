// A JSON Schema `pattern` read into a small tree the spec diff can reason about: positions (a set of
// code points), groups of alternatives and repeats. Only what the tree models exactly is read;
// anything else (lookarounds, back-references, word boundaries, \p{...}, anchors inside a group)
// makes the reader give up, so a pattern is either modelled faithfully or not at all.
import { ANY, DIGIT, DOT, SPACE, WORD, charSet, complement, single, union, type CharSet } from './charSets.js';

export type RegexNode =
  { kind: 'chars'; set: CharSet } | { kind: 'group'; options: RegexNode[][] } | { kind: 'repeat'; node: RegexNode; min: number; max: number }; // max: Infinity when unbounded

class Unsupported extends Error {}

const SYNTAX_CHARACTERS = '^$\\.*+?()[]{}|/';
const CONTROL_ESCAPES: Record<string, number> = { t: 0x09, n: 0x0a, v: 0x0b, f: 0x0c, r: 0x0d };
const CLASS_ONLY_ESCAPES: Record<string, number> = { b: 0x08, '-': 0x2d };
const CLASS_ESCAPES: Record<string, CharSet> = { d: DIGIT, D: complement(DIGIT), w: WORD, W: complement(WORD), s: SPACE, S: complement(SPACE) };

/** Any string, what an unanchored end of a pattern allows (JSON Schema patterns search, they do not match whole). */
export const anyString: RegexNode = { kind: 'repeat', node: { kind: 'chars', set: ANY }, min: 0, max: Infinity };

class PatternReader {
  private at = 0;
  constructor(private readonly text: string) {}

  private peek(offset = 0): string | undefined {
    return this.text[this.at + offset];
  }

  private take(): string {
    const codePoint = this.text.codePointAt(this.at);
    if (codePoint === undefined) throw new Unsupported();
    const char = String.fromCodePoint(codePoint);
    this.at += char.length;
    return char;
  }

  private digits(): number | undefined {
    const match = /^\d+/.exec(this.text.slice(this.at));
    if (!match) return undefined;
    this.at += match[0].length;
    return Number(match[0]);
  }

  /** The whole pattern: its top-level alternatives, each made a whole-string match by its anchors. */
  readTop(): RegexNode[][] {
    const alternatives: RegexNode[][] = [];
    do {
      const anchoredStart = this.peek() === '^' && Boolean(this.take());
      const nodes = this.readSequence();
      const anchoredEnd = this.peek() === '$' && Boolean(this.take());
      if (this.peek() !== undefined && this.peek() !== '|') throw new Unsupported();
      alternatives.push([...(anchoredStart ? [] : [anyString]), ...nodes, ...(anchoredEnd ? [] : [anyString])]);
    } while (this.peek() === '|' && this.take());
    return alternatives;
  }

  private readSequence(): RegexNode[] {
    const nodes: RegexNode[] = [];
    for (let next = this.peek(); next !== undefined && next !== '|' && next !== ')'; next = this.peek()) {
      // `$` may only close a top-level alternative (readTop checks that it does).
      if (next === '$') break;
      nodes.push(this.readQuantifier(this.readAtom()));
    }
    return nodes;
  }

  private readAtom(): RegexNode {
    const char = this.take();
    if (char === '(') return this.readGroup();
    if (char === '[') return { kind: 'chars', set: this.readClass() };
    if (char === '.') return { kind: 'chars', set: DOT };
    if (char === '\\') return { kind: 'chars', set: this.readEscape() };
    // `^` inside, a quantifier with nothing to repeat, a stray bracket: nothing to model.
    if ('^*+?{}])|'.includes(char)) throw new Unsupported();
    return { kind: 'chars', set: single(char.codePointAt(0)!) };
  }

  private readGroup(): RegexNode {
    if (this.peek() === '?') {
      this.take();
      const kind = this.take();
      // (?:...) and a named group (?<name>...) only group; (?=, (?!, (?<=, (?<! look around.
      const named = kind === '<' && this.peek() !== '=' && this.peek() !== '!';
      if (!named && kind !== ':') throw new Unsupported();
      if (named) this.at = this.text.indexOf('>', this.at) + 1;
    }
    const options: RegexNode[][] = [];
    do options.push(this.readSequence());
    while (this.peek() === '|' && this.take());
    if (this.take() !== ')') throw new Unsupported();
    return { kind: 'group', options };
  }

  private readQuantifier(node: RegexNode): RegexNode {
    const char = this.peek();
    let bounds: [number, number] | undefined;
    if (char === '*' || char === '+' || char === '?') {
      this.take();
      bounds = char === '*' ? [0, Infinity] : char === '+' ? [1, Infinity] : [0, 1];
    } else if (char === '{') {
      this.take();
      const min = this.digits();
      const max = this.peek() === ',' && this.take() ? (this.digits() ?? Infinity) : min;
      if (min === undefined || max === undefined || this.take() !== '}') throw new Unsupported();
      bounds = [min, max];
    }
    if (!bounds) return node;
    // A lazy quantifier finds a match exactly when the greedy one does.
    if (this.peek() === '?') this.take();
    return { kind: 'repeat', node, min: bounds[0], max: bounds[1] };
  }

  private readClass(): CharSet {
    const negated = this.peek() === '^' && Boolean(this.take());
    const parts: CharSet[] = [];
    while (this.peek() !== ']') {
      const from = this.readClassAtom();
      if (this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== undefined) {
        this.take();
        const to = this.readClassAtom();
        if (from.length !== 1 || to.length !== 1 || from[0]![0] !== from[0]![1] || to[0]![0] !== to[0]![1]) throw new Unsupported();
        parts.push([[from[0]![0], to[0]![0]]]);
      } else parts.push(from);
    }
    this.take();
    const set = union(...parts);
    return negated ? complement(set) : set;
  }

  private readClassAtom(): CharSet {
    const char = this.take();
    if (char !== '\\') return single(char.codePointAt(0)!);
    // Inside a class `\b` is a backspace and `\-` a hyphen.
    const escaped = CLASS_ONLY_ESCAPES[this.peek() ?? ''];
    if (escaped === undefined) return this.readEscape();
    this.take();
    return single(escaped);
  }

  private readEscape(): CharSet {
    const char = this.take();
    if (CLASS_ESCAPES[char]) return CLASS_ESCAPES[char];
    if (CONTROL_ESCAPES[char] !== undefined) return single(CONTROL_ESCAPES[char]);
    if (SYNTAX_CHARACTERS.includes(char)) return single(char.codePointAt(0)!);
    if (char === '0' && !/\d/.test(this.peek() ?? '')) return single(0);
    if (char === 'x' || char === 'u') return single(this.readHex(char));
    if (char === 'c' && /[A-Za-z]/.test(this.peek() ?? '')) return single(this.take().codePointAt(0)! % 32);
    // \b and \B (word boundaries, outside a class), back-references, \p{...}: not modelled.
    throw new Unsupported();
  }

  private readHex(kind: 'x' | 'u'): number {
    const braced = kind === 'u' && this.peek() === '{';
    const match = braced
      ? /^\{([0-9A-Fa-f]+)\}/.exec(this.text.slice(this.at))
      : new RegExp(`^([0-9A-Fa-f]{${kind === 'x' ? 2 : 4}})`).exec(this.text.slice(this.at));
    if (!match) throw new Unsupported();
    this.at += match[0].length;
    const codePoint = parseInt(match[1]!, 16);
    // A surrogate written as two \u escapes is one code point; leave that to the regex engine.
    if (codePoint >= 0xd800 && codePoint <= 0xdfff) throw new Unsupported();
    return codePoint;
  }
}

/**
 * The pattern as alternatives that each match a whole string (an unanchored side becomes "any
 * string"), or null when the pattern is not valid with the `u` flag or uses what the tree does not model.
 */
export function readPattern(pattern: string): RegexNode[][] | null {
  try {
    new RegExp(pattern, 'u');
    return new PatternReader(pattern).readTop().map(joinGroups);
  } catch {
    return null;
  }
}

// A group of one alternative only groups: its parts join the sequence around it, so `(ab)c` and
// `abc` compare part by part alike. Alternatives of one character each are a class: (a|b) is [ab].
function joinGroups(nodes: RegexNode[]): RegexNode[] {
  return nodes.flatMap((node): RegexNode[] => {
    if (node === anyString) return [node];
    if (node.kind === 'group') {
      const options = node.options.map(joinGroups);
      if (options.length === 1) return options[0]!;
      const single = options.map((option) => (option.length === 1 && option[0]!.kind === 'chars' ? option[0]!.set : null));
      return single.every((set) => set !== null) ? [{ kind: 'chars', set: union(...single) }] : [{ kind: 'group', options }];
    }
    if (node.kind === 'repeat') {
      const inner = joinGroups([node.node]);
      return [{ ...node, node: inner.length === 1 ? inner[0]! : { kind: 'group', options: [inner] } }];
    }
    return [node];
  });
}

/** Every code point any string of `node` may contain: a repeat of it stays within that set. */
export function alphabetOf(node: RegexNode): CharSet {
  if (node.kind === 'chars') return node.set;
  if (node.kind === 'repeat') return node.max === 0 ? [] : alphabetOf(node.node);
  return charSet(node.options.flatMap((option) => option.flatMap((n) => alphabetOf(n))));
}
