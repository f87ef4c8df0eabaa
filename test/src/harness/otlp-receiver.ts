import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';

/**
 * The OpenTelemetry project's own generated protobuf code of opentelemetry-proto (as @opentelemetry/otlp-transformer
 * shipped it up to 0.216): what a collector decodes, so the test reads the exports exactly as a backend would.
 */
interface Decoder {
  decode(bytes: Uint8Array): unknown;
  toObject(message: unknown, options: Record<string, unknown>): unknown;
}
const require = createRequire(import.meta.url);
const root = require('@opentelemetry/otlp-transformer/build/src/generated/root.js') as {
  opentelemetry: { proto: { collector: { trace: { v1: { ExportTraceServiceRequest: Decoder } } } } };
};
const ExportTraceServiceRequest = root.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;

export const SPAN_KIND = { INTERNAL: 1, SERVER: 2, CLIENT: 3 } as const;

/** One exported span, flattened: ids in hex, attributes as plain values. */
export interface ReceivedSpan {
  service: string;
  /** The exporting process's resource attributes (service.name among them). */
  resource: Record<string, unknown>;
  /** The schema URL of the span's instrumentation scope (the semantic-conventions version it follows). */
  schemaUrl: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  events: Array<{ name: string; attributes: Record<string, unknown> }>;
  links: Array<{ traceId: string; spanId: string }>;
  status: { code: number; message: string };
}

/** refuse: 503 to every export; blackhole: read the export, never answer. */
export type ReceiverMode = 'ok' | 'refuse' | 'blackhole';

/** An OTLP/HTTP protobuf trace receiver on a free loopback port, keeping every span and every raw export. */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  /** Every export body as received (protobuf bytes), and decoded as JSON text: what must never hold a secret. */
  readonly raw: Buffer[] = [];
  readonly decoded: string[] = [];
  exports = 0;
  mode: ReceiverMode = 'ok';
  private readonly held: ServerResponse[] = [];
  private server: Server | undefined;
  private port = 0;

  async start(): Promise<this> {
    this.server = createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  /** OTEL_EXPORTER_OTLP_ENDPOINT for this receiver. */
  get endpoint(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Spans of one trace. */
  trace(traceId: string): ReceivedSpan[] {
    return this.spans.filter((s) => s.traceId === traceId);
  }

  /** Waits until `test` holds for the spans received (polling; the processes export every ~100 ms in tests). */
  async waitFor(test: (spans: ReceivedSpan[]) => boolean, timeoutMs = 10_000): Promise<ReceivedSpan[]> {
    const deadline = Date.now() + timeoutMs;
    while (!test(this.spans)) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for spans; have: ${this.spans.map((s) => `${s.service}:${s.name}`).join(', ')}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    return this.spans;
  }

  async close(): Promise<void> {
    for (const res of this.held) res.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server === undefined ? resolve() : this.server.close(() => resolve())));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      this.exports += 1;
      const body = Buffer.concat(chunks);
      if (this.mode === 'blackhole') {
        this.held.push(res);
        return;
      }
      if (this.mode === 'refuse') {
        res.writeHead(503).end();
        return;
      }
      if (req.url !== '/v1/traces' || req.headers['content-type'] !== 'application/x-protobuf') {
        res.writeHead(415).end();
        return;
      }
      this.raw.push(body);
      const message = ExportTraceServiceRequest.decode(body);
      const obj = ExportTraceServiceRequest.toObject(message, { longs: String, bytes: String, defaults: false }) as ExportRequest;
      this.decoded.push(JSON.stringify(obj));
      this.collect(obj);
      // An empty ExportTraceServiceResponse: full success.
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  }

  private collect(obj: ExportRequest): void {
    for (const rs of obj.resourceSpans ?? []) {
      const resource = attributesOf(rs.resource?.attributes);
      const service = String(resource['service.name'] ?? '');
      for (const ss of rs.scopeSpans ?? []) {
        for (const s of ss.spans ?? []) {
          this.spans.push({
            service,
            resource,
            schemaUrl: ss.schemaUrl ?? '',
            traceId: hex(s.traceId),
            spanId: hex(s.spanId),
            parentSpanId: hex(s.parentSpanId),
            name: s.name ?? '',
            kind: s.kind ?? 0,
            attributes: attributesOf(s.attributes),
            events: (s.events ?? []).map((e) => ({ name: e.name ?? '', attributes: attributesOf(e.attributes) })),
            links: (s.links ?? []).map((l) => ({ traceId: hex(l.traceId), spanId: hex(l.spanId) })),
            status: { code: s.status?.code ?? 0, message: s.status?.message ?? '' },
          });
        }
      }
    }
  }
}

interface AnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string;
  doubleValue?: number;
  arrayValue?: { values?: AnyValue[] };
}
interface KeyValue {
  key: string;
  value?: AnyValue;
}
interface ExportRequest {
  resourceSpans?: Array<{
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: Array<{
      schemaUrl?: string;
      spans?: Array<{
        traceId?: string;
        spanId?: string;
        parentSpanId?: string;
        name?: string;
        kind?: number;
        attributes?: KeyValue[];
        events?: Array<{ name?: string; attributes?: KeyValue[] }>;
        links?: Array<{ traceId?: string; spanId?: string }>;
        status?: { code?: number; message?: string };
      }>;
    }>;
  }>;
}

/** bytes fields come out of toObject as base64 strings. */
function hex(b64: string | undefined): string {
  return b64 === undefined || b64 === '' ? '' : Buffer.from(b64, 'base64').toString('hex');
}

function valueOf(v: AnyValue | undefined): unknown {
  if (v === undefined) return undefined;
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.arrayValue !== undefined) return (v.arrayValue.values ?? []).map(valueOf);
  return undefined;
}

function attributesOf(list: KeyValue[] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const kv of list ?? []) out[kv.key] = valueOf(kv.value);
  return out;
}
