// Content negotiation for responses documented with several media types (GET /): the client's
// preference wins, JSON is the default whenever the client does not say otherwise.
import { describe, expect, it } from 'vitest';
import { preferredMediaType } from '../../src/http/mediaType.js';

const offered = ['application/json', 'text/html'] as const;
const browser = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7';

describe('preferredMediaType', () => {
  it.each([
    ['no Accept header', undefined, 'application/json'],
    ['an empty Accept', '', 'application/json'],
    ['*/* (curl, fetch)', '*/*', 'application/json'],
    ['application/json', 'application/json', 'application/json'],
    ["a browser's Accept", browser, 'text/html'],
    ['text/html', 'text/html', 'text/html'],
    ['text/* beats */*', 'text/*, */*;q=0.5', 'text/html'],
    ['a higher q wins over order', 'text/html;q=0.4, application/json', 'application/json'],
    ['an explicitly named type beats a wildcard of the same q', '*/*, text/html', 'text/html'],
    ['q=0 refuses a type', 'text/html;q=0, */*', 'application/json'],
    ['a type we do not offer falls back to the default', 'image/png', 'application/json'],
    ['garbage falls back to the default', 'not a media type;;q=abc', 'application/json'],
    ['media types are case-insensitive', 'TEXT/HTML', 'text/html'],
  ])('%s → %s', (_case, accept, expected) => {
    expect(preferredMediaType(accept, offered)).toBe(expected);
  });
});
