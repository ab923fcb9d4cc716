// The documented query parameters read from the URL (src/http/queryString.ts) are what Hono's
// c.req.queries() gives for those names, on the awkward cases too.
import { getQueryParams } from 'hono/utils/url';
import { describe, expect, it } from 'vitest';
import { documentedQuery } from '../../src/http/queryString.js';

const names = ['size', 'cursor', 'sort', 'a b', 'ü'];
const urls = [
  'http://localhost/api/v1/trips',
  'http://localhost/api/v1/trips?',
  'http://localhost/api/v1/trips?size=20',
  'http://localhost/api/v1/trips?size=20&size=30&cursor=5',
  'http://localhost/api/v1/trips?size&cursor=&sort=createdAt:desc',
  'http://localhost/api/v1/trips?other=1&size=2&&=3&sort',
  'http://localhost/api/v1/trips?sort=createdAt%3Adesc&cursor=1+2',
  'http://localhost/api/v1/trips?a+b=x&a%20b=y&%C3%BC=%C3%A9',
  'http://localhost/api/v1/trips?size=%zz&cursor=%41%zz%42&sort=%E0%A4%A',
  'http://localhost/api/v1/trips?size=1=2&cursor==3',
  'http://localhost/api/v1/trips?size=4#frag&cursor=9',
  'http://localhost/api/v1/trips?s%69ze=7',
];

describe('documented query parameters', () => {
  it.each(urls)("are Hono's queries() for the documented names: %s", (url) => {
    const hono = getQueryParams(url) as Record<string, string[]>;
    const expected = Object.fromEntries(Object.entries(hono).filter(([name]) => names.includes(name)));
    expect({ ...documentedQuery(url, names) }).toEqual(expected);
  });

  it('skips every parameter of an operation that documents none', () => {
    expect(documentedQuery('http://localhost/x?size=1', [])).toEqual({});
  });
});
