// An in-process OTLP/HTTP receiver that decodes what the official exporter sends (OTLP JSON), for
// the trace tests.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OtlpValue { stringValue?: string; intValue?: string | number; boolValue?: boolean }
export interface OtlpSpan {
  traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number;
  attributes: Array<{ key: string; value: OtlpValue }>;
  events?: Array<{ name: string; attributes: Array<{ key: string; value: OtlpValue }> }>;
  status?: { code?: number; message?: string };
  links?: Array<{ traceId: string; spanId: string }>;
  resource: Record<string, unknown>;
}
export const plain = (attrs: Array<{ key: string; value: OtlpValue }> = []) =>
  Object.fromEntries(attrs.map(({ key, value }) => [key, value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : value.boolValue)]));

/** What the exporter POSTs to /v1/traces, decoded: every span with its resource's attributes. */
export async function otlpReceiver(): Promise<{ url: string; spans: OtlpSpan[]; paths: string[]; close(): Promise<void> }> {
  const spans: OtlpSpan[] = [];
  const paths: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      paths.push(`${req.method} ${req.url} ${req.headers['content-type']}`);
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { resourceSpans: Array<{ resource: { attributes: [] }; scopeSpans: Array<{ spans: OtlpSpan[] }> }> };
      for (const rs of body.resourceSpans) for (const ss of rs.scopeSpans) for (const s of ss.spans) spans.push({ ...s, resource: plain(rs.resource.attributes) });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`, spans, paths, close: () => new Promise((r) => server.close(() => r())) };
}

/** `n` random hex digits (trace ids: 32, span ids: 16). */
export const hex = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 16).toString(16)).join('');

/** The W3C traceparent of a span. */
export const traceparentOf = (traceId: string, spanId: string) => `00-${traceId}-${spanId}-01`;
