import { GatewayError } from '@gateway/shared';
import type { ExchangeResult, Responder } from '../exchange.js';

/** Live keys when no UPSTREAM_URL is set: refused, and nothing is metered. */
export class UnconfiguredUpstream implements Responder {
  async respond(): Promise<ExchangeResult> {
    throw notConfigured();
  }

  async countTokens(): Promise<number> {
    throw notConfigured();
  }
}

function notConfigured(): GatewayError {
  return new GatewayError('no_upstream', 503, 'api_error', 'no upstream configured', true, { shouldRetry: false });
}
