// Where an operator's bug breaks the specs: the exact text, and where it stands (the document and a
// JSON pointer into it). A quote is checked against the documents, so an operator cannot go on
// citing a line the specs no longer have.
import { valueAtPointer } from '../specModel/index.js';

export interface SpecQuote {
  file: 'openapi.yaml' | 'asyncapi.yaml';
  /** RFC 6901 pointer into the document as written (before bundling) */
  pointer: string;
  /**
   * The quoted text: part of the string at `pointer` (line breaks and runs of spaces count as one
   * space), or, for a value that is not a string, `<last pointer token>: <its JSON>` or part of it.
   */
  text: string;
}

const squeezed = (text: string) => text.replace(/\s+/g, ' ').trim();

/** What a quote at `pointer` may be part of: the string there, or `name: <JSON>` of another value; undefined when there is nothing. */
export function quotableTextAt(document: unknown, pointer: string): string | undefined {
  const value = valueAtPointer(document, pointer);
  if (value === undefined) return undefined;
  if (typeof value === 'string') return squeezed(value);
  const name = pointer.split('/').pop()!.replace(/~1/g, '/').replace(/~0/g, '~');
  return `${name}: ${JSON.stringify(value)}`;
}

/** Why the quote does not stand in the document, or null when it does. */
export function quoteProblem(document: unknown, quote: SpecQuote): string | null {
  const text = quotableTextAt(document, quote.pointer);
  if (text === undefined) return `${quote.file} has nothing at ${quote.pointer}`;
  return text.includes(squeezed(quote.text)) ? null : `${quote.file} ${quote.pointer} does not say ${JSON.stringify(quote.text)}`;
}
