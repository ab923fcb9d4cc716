// The ERROR frame's `error-code` header of asyncapi.yaml is ErrorCode (openapi.yaml) narrowed by a
// pattern; codegen refuses specs where that pattern and the codes marked `x-stomp: [error-frame]`
// disagree, so the header's schema is exactly the codes the server may send there.
import { describe, expect, it } from 'vitest';
import { bundle, readMessages, readYaml } from '../../conformance/specModel/index.js';
import { readErrorCodes } from '../../codegen/errorCodeModel.js';
import { checkErrorFrameCodes } from '../../codegen/errorFrameCodes.js';
import { asyncapiPath, openapiPath } from '../../codegen/specFiles.js';

const asyncapi = bundle(asyncapiPath);
const messages = readMessages(asyncapi);
const codes = readErrorCodes(readYaml(openapiPath));

describe('error-code of the ERROR frame', () => {
  it('selects exactly the codes whose x-stomp lists error-frame', () => {
    expect(() => checkErrorFrameCodes(asyncapi, messages, codes)).not.toThrow();
  });

  it('is refused when a code outside the pattern is marked error-frame', () => {
    const marked = codes.map((c) => (c.code === 'TRIP101' ? { ...c, stomp: [...c.stomp, 'error-frame' as const] } : c));
    expect(() => checkErrorFrameCodes(asyncapi, messages, marked)).toThrow(/selects WS001.*error-frame are .*TRIP101/);
  });

  it('is refused when a code inside the pattern is not an error-frame code', () => {
    const unmarked = [...codes, { code: 'WS900', description: 'x', httpStatus: null, stomp: ['errors-channel' as const], message: 'x' }];
    expect(() => checkErrorFrameCodes(asyncapi, messages, unmarked)).toThrow(/WS900/);
  });
});
