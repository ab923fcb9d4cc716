// The HTTP method as OpenTelemetry's semantic conventions record it (http.request.method): one of
// the known methods (RFC 9110's and PATCH), or `_OTHER`. A client may send any token as a method
// (PROPFIND, MKCOL, anything node's parser takes); as a metric label each would be a series of its
// own, so the label and the span attribute take `_OTHER` and the span keeps the original beside it.

const KNOWN_METHODS = new Set(['CONNECT', 'DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT', 'TRACE']);

export const OTHER_METHOD = '_OTHER';

/** `method` when it is a known method, else `_OTHER`. */
export function knownMethod(method: string): string {
  return KNOWN_METHODS.has(method) ? method : OTHER_METHOD;
}
