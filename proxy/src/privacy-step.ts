import { InvalidRequestError, type PrivacyMode } from '@gateway/shared';
import { applyPrivacyWith, privacyTextLength, type PrivacyResult } from '@gateway/privacy';
import type { ProxyDeps } from './proxy-deps.js';

/**
 * The most text one request may carry. No catalogue model's 200K-token context holds this much text, so a
 * request past it would be refused upstream anyway; refusing it first bounds the privacy scan.
 */
export const MAX_PRIVACY_TEXT_CHARS = 4 * 1024 * 1024;

/**
 * A body problem, checked with the others before the decision (so a refused request counts nothing), whatever
 * the key's privacy mode: more text than any context window holds.
 */
export function textLimitError(body: Record<string, unknown>): InvalidRequestError | undefined {
  const length = privacyTextLength(body);
  if (length <= MAX_PRIVACY_TEXT_CHARS) return undefined;
  return new InvalidRequestError(
    `prompt is too long: ${length} characters of text > ${MAX_PRIVACY_TEXT_CHARS}, more than any model's context window holds`,
  );
}

/** The key's privacy mode on a request body (detection off the event loop when the request is large). */
export async function applyKeyPrivacy(deps: ProxyDeps, body: Record<string, unknown>, mode: Exclude<PrivacyMode, 'off'>): Promise<PrivacyResult> {
  return applyPrivacyWith(body, mode, deps.detectMany);
}
