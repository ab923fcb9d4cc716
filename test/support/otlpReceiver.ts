// An OTLP/HTTP receiver for tests: a plain node http server on 127.0.0.1 that accepts the JSON
// encoding of POST /v1/traces (what @opentelemetry/exporter-trace-otlp-http sends) and keeps every
// span it was sent, flattened, with its resource's attributes.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

type AnyValue = { stringValue?: string; intValue?: number | string; boolValue?: boolean; doubleValue?: number };
type KeyValue = { key: string; value: AnyValue };

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: KeyValue[];
  status?: { code?: number };
}

interface ExportTraceServiceRequest {
  resourceSpans: { resource?: { attributes?: KeyValue[] }; scopeSpans: { scope?: { name: string }; spans: OtlpSpan[] }[] }[];
}

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** '' for a root span */
  parentSpanId: string;
  name: string;
  /** OTLP's: 1 internal, 2 server, 3 client, 4 producer, 5 consumer */
  kind: number;
  attributes: Record<string, string | number | boolean>;
  resource: Record<string, string | number | boolean>;
  statusCode: number;
  scope: string;
}

export interface OtlpReceiver {
  /** the base URL, as OTEL_EXPORTER_OTLP_ENDPOINT */
  url: string;
  spans: ReceivedSpan[];
  /** every request body as it came, for checks on what must never be sent */
  bodies: string[];
  close(): Promise<void>;
}

function plain(value: AnyValue): string | number | boolean {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.doubleValue !== undefined) return value.doubleValue;
  return JSON.stringify(value);
}

const record = (attributes: KeyValue[] = []) => Object.fromEntries(attributes.map((a) => [a.key, plain(a.value)]));

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const bodies: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces' || !(req.headers['content-type'] ?? '').includes('application/json')) {
        res.writeHead(404).end();
        return;
      }
      const raw = Buffer.concat(chunks);
      const text = (req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
      bodies.push(text);
      const request = JSON.parse(text) as ExportTraceServiceRequest;
      for (const { resource, scopeSpans } of request.resourceSpans) {
        for (const { scope, spans: sent } of scopeSpans) {
          for (const span of sent) {
            spans.push({
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId ?? '',
              name: span.name,
              kind: span.kind,
              attributes: record(span.attributes),
              resource: record(resource?.attributes),
              statusCode: span.status?.code ?? 0,
              scope: scope?.name ?? '',
            });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    bodies,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
