import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Grant, LineLog, TokenUsage } from '@gateway/shared';
import type { AttemptRecord } from './exchange.js';

/**
 * What a route learned about its request, for the one access-log line (CONTRACT.md "Operating it") and the
 * metrics written when the response closes. Identifiers and figures only: never a key, a body or a value a
 * request carried (the model is the catalogue alias of an admitted request, never the string the client sent).
 */
export interface AccessRecord {
  decision_id?: string;
  key_id?: string;
  account_id?: string;
  environment?: 'live' | 'test';
  model?: string;
  stream?: boolean;
  overhead_ms?: number;
  ttft_ms?: number;
  tokens?: TokenUsage;
  outcome?: string;
  error_code?: string;
  error_type?: string;
  /** the upstream attempts in order (admitted message requests) */
  attempts?: AttemptRecord[];
}

const records = new WeakMap<ServerResponse, AccessRecord>();

/** The access record of a response, created on first use. */
export function accessRecord(res: ServerResponse): AccessRecord {
  let rec = records.get(res);
  if (rec === undefined) {
    rec = {};
    records.set(res, rec);
  }
  return rec;
}

/** Notes an admitted request's identity for its access-log line (ids and the catalogue alias only). */
export function noteAdmitted(res: ServerResponse, decisionId: string, grant: Grant, stream: boolean): AccessRecord {
  const rec = accessRecord(res);
  rec.decision_id = decisionId;
  rec.key_id = grant.key.key_id;
  rec.account_id = grant.key.account_id;
  rec.environment = grant.key.environment;
  rec.model = grant.model;
  rec.stream = stream;
  return rec;
}

/** The access-log line of a finished request. */
export function logAccess(
  log: LineLog,
  req: IncomingMessage,
  res: ServerResponse,
  route: string,
  requestId: string,
  durationMs: number,
  trace?: { trace_id: string; span_id: string },
): void {
  const rec = records.get(res) ?? {};
  log.info({
    request_id: requestId,
    // The request's trace (its SERVER span), when it is traced: a log line leads to its trace and back.
    trace_id: trace?.trace_id,
    span_id: trace?.span_id,
    decision_id: rec.decision_id,
    key_id: rec.key_id,
    account_id: rec.account_id,
    environment: rec.environment,
    method: req.method,
    route,
    model: rec.model,
    status: res.statusCode,
    stream: rec.stream,
    duration_ms: round(durationMs),
    overhead_ms: rec.overhead_ms === undefined ? undefined : round(rec.overhead_ms),
    ttft_ms: rec.ttft_ms === undefined ? undefined : round(rec.ttft_ms),
    tokens: rec.tokens,
    attempts: rec.attempts?.map((a) => ({ upstream: a.upstream, platform: a.platform, call_region: a.call_region, outcome: a.outcome, ms: round(a.ms) })),
    outcome: rec.outcome ?? (rec.error_code === undefined ? 'ok' : 'refused'),
    error_code: rec.error_code,
    completed: res.writableFinished,
  }, 'request');
}

const round = (ms: number): number => Math.round(ms * 1000) / 1000;
