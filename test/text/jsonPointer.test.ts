// The one JSON pointer reader (RFC 6901), plain and as a URI fragment.
import { describe, expect, it } from 'vitest';
import { pointerTokens, valueAtPointer } from '../../src/text/jsonPointer.js';

describe('pointerTokens', () => {
  it('splits a pointer and unescapes ~1 before ~0', () => {
    expect(pointerTokens('')).toEqual([]);
    expect(pointerTokens('/themes/2')).toEqual(['themes', '2']);
    expect(pointerTokens('/a~1b/m~0n/~01')).toEqual(['a/b', 'm~n', '~1']);
    expect(pointerTokens('/')).toEqual(['']);
  });

  it('percent-decodes a fragment first', () => {
    expect(pointerTokens('#/components/schemas/Id')).toEqual(['components', 'schemas', 'Id']);
    expect(pointerTokens('#/paths/~1trips~1%7Bid%7D')).toEqual(['paths', '/trips/{id}']);
    expect(pointerTokens('#')).toEqual([]);
  });

  it('refuses text that is not a pointer', () => {
    expect(() => pointerTokens('themes/2')).toThrow('not a JSON pointer');
  });
});

describe('valueAtPointer', () => {
  const doc = { themes: ['HEALING', 'SHOPPING'], 'a/b': { '': 1 }, nothing: null };

  it('finds values in objects and arrays', () => {
    expect(valueAtPointer(doc, '')).toBe(doc);
    expect(valueAtPointer(doc, '/themes/1')).toBe('SHOPPING');
    expect(valueAtPointer(doc, '/a~1b/')).toBe(1);
    expect(valueAtPointer(doc, '/nothing')).toBeNull();
  });

  it('is undefined where nothing is, inherited properties included', () => {
    expect(valueAtPointer(doc, '/themes/5')).toBeUndefined();
    expect(valueAtPointer(doc, '/nothing/deeper')).toBeUndefined();
    expect(valueAtPointer(doc, '/constructor')).toBeUndefined();
  });
});
