// Public surface of the privacy module: PII detection and the privacy modes of CONTRACT.md.
export type { CorePiiType, ExtraPiiType, Finding, PiiType } from './pii-types.js';
export { CORE_PII_TYPES, PII_TYPES } from './pii-types.js';
export { detect, detectAll } from './detect.js';
export type { DetectMany, PrivacyMode, PrivacyResult } from './apply-privacy.js';
export { applyPrivacy, applyPrivacyWith, privacyTextLength } from './apply-privacy.js';
export { DetectorPool } from './detector-pool.js';
export { formatPiiHeader } from './pii-header.js';
export type { TokenRestorer } from './token-restorer.js';
export type { StreamRestorer } from './stream-restorer.js';
export { loadNameModel, NameModelError, SHIPPED_NAME_MODEL_FILE } from './names/load-name-model.js';
export { useNameModel } from './names/name-detector.js';
