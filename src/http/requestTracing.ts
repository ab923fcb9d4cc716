// One server span per HTTP request (only with tracing on: middlewareStack.ts leaves this out
// otherwise), named by the operationId it reached, with the semantic-convention attributes of an
// HTTP server span. An incoming W3C `traceparent` makes it a child of the caller's span. Never the
// query string, never a header value: url.path is the path alone. A method that is not a known one
// is `_OTHER`, with the method sent in http.request.method_original (requestMethod.ts).
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { MiddlewareHandler } from 'hono';
import type { HttpEnv } from './httpEnv.js';
import { knownMethod, OTHER_METHOD } from './requestMethod.js';
import { routeFor } from './operationRouter.js';

const tracer = trace.getTracer('trip-itinerary/http');

export function requestTracing(): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    const method = c.req.method;
    const path = c.req.path;
    const traceparent = c.req.header('traceparent');
    const parent = traceparent === undefined ? ROOT_CONTEXT : propagation.extract(ROOT_CONTEXT, { traceparent, tracestate: c.req.header('tracestate') });
    const known = knownMethod(method);
    const attributes = known === OTHER_METHOD ? { 'http.request.method': known, 'http.request.method_original': method } : { 'http.request.method': known };
    // Without an operation the span is named by its method, and by `HTTP` for one that is not known.
    const span = tracer.startSpan(known === OTHER_METHOD ? 'HTTP' : known, { kind: SpanKind.SERVER, attributes: { ...attributes, 'url.path': path } }, parent);
    try {
      await context.with(trace.setSpan(parent, span), next);
    } finally {
      // The route is known once the router ran; a request refused before it (429, 413) is named by
      // the operation its path and method belong to, if any.
      const route = c.get('route') ?? routeFor(method, path);
      if (route) {
        span.updateName(route.operationId);
        span.setAttribute('http.route', route.path);
      }
      const status = c.res.status;
      span.setAttribute('http.response.status_code', status);
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
  };
}
