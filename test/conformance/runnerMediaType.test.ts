// The runner's content-type check: a response matches the documented media type when its
// type/subtype is the same and it carries every parameter the spec names with that value.
import { describe, expect, it } from 'vitest';
import { mediaTypeSatisfies } from '../../conformance/runner/mediaType.js';

describe('documented media types', () => {
  it('accepts parameters the spec leaves out, and ignores case in type and charset', () => {
    expect(mediaTypeSatisfies('text/plain; version=0.0.4; charset=utf-8', 'text/plain; version=0.0.4')).toBe(true);
    expect(mediaTypeSatisfies('application/json; charset=UTF-8', 'application/json')).toBe(true);
    expect(mediaTypeSatisfies('Application/JSON', 'application/json')).toBe(true);
    expect(mediaTypeSatisfies('text/plain; charset="utf-8"', 'text/plain; charset=UTF-8')).toBe(true);
  });

  it('refuses another type, a missing documented parameter, or another value of it', () => {
    expect(mediaTypeSatisfies('text/html', 'text/plain')).toBe(false);
    expect(mediaTypeSatisfies('text/plain', 'text/plain; version=0.0.4')).toBe(false);
    expect(mediaTypeSatisfies('text/plain; version=1.0.0', 'text/plain; version=0.0.4')).toBe(false);
    expect(mediaTypeSatisfies(null, 'application/json')).toBe(false);
  });
});
