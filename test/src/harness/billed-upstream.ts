import { startMessagesFake, type MessagesFake } from '../fakes/index.js';

/** Billable units of every request the billed upstream answers: 100 input + 50 output tokens. */
export const UNITS_PER_REQUEST = 150;

/**
 * The fake Messages upstream the metering tests use: every request billed 100 input and 50 output tokens, JSON or
 * streamed; `env` points a gateway's live keys at it.
 */
export async function startBilledUpstream(): Promise<{ fake: MessagesFake; env: Record<string, string> }> {
  const fake = await startMessagesFake({ apiKey: 'up' });
  fake.setBehaviour({ usage: { input_tokens: 100, output_tokens: 50 } });
  return { fake, env: { UPSTREAM_URL: `${fake.url}/{region}/v1`, UPSTREAM_API_KEY: 'up' } };
}
