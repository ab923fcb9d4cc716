// STOMP header values are text; the runner's frame_headers check reads a header as the type its
// schema gives it before validating (conformance/runner/phases/async/frameHeaders.ts), so a schema
// that types `content-length` as an integer judges `12`, not `"12"`.
import { describe, expect, it } from 'vitest';
import { typedHeaders } from '../../conformance/runner/phases/async/frameHeaders.js';

const asyncapi = { components: { schemas: { Count: { type: 'integer' } } } };
const schema = {
  type: 'object',
  properties: {
    'content-length': { $ref: '#/components/schemas/Count' },
    'x-recovered': { type: 'boolean' },
    'message-id': { type: 'string' },
    'x-either': { type: ['string', 'integer'] },
  },
};

describe('frame headers as their schema types them', () => {
  it('reads numbers and booleans where the schema says so, and leaves text and undeclared headers as text', () => {
    const headers = { 'content-length': '12', 'x-recovered': 'true', 'message-id': '12', 'x-either': '7', extra: '1' };
    expect(typedHeaders(asyncapi, schema, headers)).toEqual({ 'content-length': 12, 'x-recovered': true, 'message-id': '12', 'x-either': '7', extra: '1' });
  });

  it('leaves text that does not read as the type for the schema to refuse', () => {
    expect(typedHeaders(asyncapi, schema, { 'content-length': '12 bytes', 'x-recovered': 'yes' })).toEqual({
      'content-length': '12 bytes',
      'x-recovered': 'yes',
    });
  });
});
