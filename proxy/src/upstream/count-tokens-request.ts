import { request, type Dispatcher } from 'undici';
import { UpstreamError, UpstreamHeadersTimeoutError } from '@gateway/shared';
import { errorFromUpstreamNetwork, errorFromUpstreamStatus } from './upstream-errors.js';
import { failureOfNetwork, failureOfStatus, type AttemptFailure } from './attempt-outcome.js';

export interface CountTokensRequest {
  client: Dispatcher;
  headers: Record<string, string>;
  body: Buffer;
  signal: AbortSignal;
  timeoutMs: number;
  /** told how a failed call went (CountContext.failed), before its error is thrown */
  failed?: ((failure: AttemptFailure) => void) | undefined;
}

/**
 * One count_tokens call and its `input_tokens`: the platforms differ only in the URL, headers and body they build,
 * and answer in the vendor's format alike.
 */
export async function postCountTokens(url: string, r: CountTokensRequest): Promise<number> {
  const res = await request(url, {
    dispatcher: r.client, method: 'POST', headers: r.headers, body: r.body, signal: r.signal,
    headersTimeout: r.timeoutMs, bodyTimeout: r.timeoutMs,
  }).catch((err: unknown) => {
    const code = (err as { code?: unknown } | null)?.code;
    const timedOut = code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT';
    // A count generates nothing and bills nothing: one that timed out may be asked of the next route.
    r.failed?.(timedOut ? { outcome: 'timeout', retryable: true } : failureOfNetwork(err));
    throw timedOut ? new UpstreamHeadersTimeoutError() : errorFromUpstreamNetwork(err);
  });
  const text = await res.body.text().catch(() => '');
  if (res.statusCode !== 200) {
    r.failed?.(failureOfStatus(res.statusCode, res.headers));
    throw errorFromUpstreamStatus(res.statusCode, text);
  }
  // Never JSON.parse's own error: its message quotes the text, which is the upstream's and untrusted.
  let n: unknown;
  try {
    n = (JSON.parse(text) as { input_tokens?: unknown } | null)?.input_tokens;
  } catch {
    n = undefined;
  }
  if (typeof n !== 'number') throw new UpstreamError('The upstream answered count_tokens without input_tokens.');
  return n;
}
