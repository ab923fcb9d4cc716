// JSON pointers (RFC 6901) are read in one place, the spec model of the conformance package; the
// server uses the same functions.
export { pointerTokens, valueAtPointer } from '../../conformance/specModel/index.js';
