import type { GatewayConfig, Logger } from '@gateway/shared';
import type { Responder } from '../exchange.js';
import { BedrockUpstream, DEFAULT_BEDROCK_URL } from './bedrock/bedrock-upstream.js';
import { MessagesUpstream } from './messages-upstream.js';
import { UnconfiguredUpstream } from './unconfigured-upstream.js';
import { createUpstreamClient } from './upstream-client.js';

/** The live-key responder UPSTREAM_KIND and UPSTREAM_URL ask for. */
export function createUpstream(config: GatewayConfig, _log: Logger): Responder {
  const { kind, url, apiKey, timeoutMs } = config.upstream;
  if (kind === 'bedrock') {
    // Bedrock has a well-known endpoint per region; UPSTREAM_URL overrides it (a VPC endpoint, or a fake in tests).
    return new BedrockUpstream({ url: url ?? DEFAULT_BEDROCK_URL, bearerToken: apiKey, timeoutMs, client: createUpstreamClient(timeoutMs) });
  }
  if (url === undefined) return new UnconfiguredUpstream();
  return new MessagesUpstream({ url, apiKey, timeoutMs, client: createUpstreamClient(timeoutMs) });
}
