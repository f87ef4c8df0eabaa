import type { TokenUsage } from '@gateway/shared';
import type { UsageTap } from '../relay/usage-tap.js';
import { estimateTokens, requestText } from '../token-estimate.js';

/**
 * The usage to meter for a live request: what the upstream reported; where the stream ended early, at least
 * what the text seen implies; where it never reported, an estimate. `processed` says whether the upstream took
 * the request at all (a refusal or no answer bills nothing).
 */
export function meteredUsage(tap: UsageTap, forwarded: Record<string, unknown>, processed: boolean): TokenUsage {
  if (tap.stopped) return { ...tap.usage };
  if (!processed) return { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  return {
    input_tokens: tap.reported ? tap.usage.input_tokens : estimateTokens(requestText(forwarded)),
    output_tokens: Math.max(tap.usage.output_tokens, Math.ceil(tap.textChars / 4)),
    cache_creation_input_tokens: tap.usage.cache_creation_input_tokens,
    cache_read_input_tokens: tap.usage.cache_read_input_tokens,
  };
}
