import { InvalidRequestError, type PrivacyMode } from '@gateway/shared';
import { applyPrivacyWith, privacyTextLength, type PrivacyResult } from './privacy/index.js';
import type { ProxyDeps } from './proxy-deps.js';

/**
 * The most text a privacy mode scans in one request. No catalogue model's 200K-token context holds this much
 * text, so a request past it would be refused upstream anyway; refusing it here bounds the scan.
 */
export const MAX_PRIVACY_TEXT_CHARS = 4 * 1024 * 1024;

/** The key's privacy mode on a request body (detection off the event loop when the request is large). */
export async function applyKeyPrivacy(deps: ProxyDeps, body: Record<string, unknown>, mode: Exclude<PrivacyMode, 'off'>): Promise<PrivacyResult> {
  const length = privacyTextLength(body);
  if (length > MAX_PRIVACY_TEXT_CHARS) {
    throw new InvalidRequestError(
      `prompt is too long: ${length} characters of text > ${MAX_PRIVACY_TEXT_CHARS}, more than any model's context window holds`,
    );
  }
  return applyPrivacyWith(body, mode, deps.detectMany);
}
