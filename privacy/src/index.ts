// The privacy engine's public surface (CONTRACT.md "Privacy modes"): detect personal data, apply a privacy mode to a
// Messages request, restore tokens in the response, load the person-name model. Everything else is internal.
export type { CorePiiType, ExtraPiiType, Finding, PiiType } from './pii-types.js';
export { CORE_PII_TYPES, PII_TYPES } from './pii-types.js';
export { detect, detectAll } from './detect.js';
export type { DetectMany, PrivacyMode, PrivacyResult } from './apply-privacy.js';
export { applyPrivacy, applyPrivacyWith, privacyTextLength } from './apply-privacy.js';
export type { TokenRestorer } from './token-restorer.js';
export { createTokenRestorer } from './token-restorer.js';
export type { StreamRestorer } from './stream-restorer.js';
export type { NameModel } from './names/name-model.js';
export type { CheckedNameModel } from './names/load-name-model.js';
export { loadNameModel, NameModelError, openNameModel, SHIPPED_NAME_MODEL_FILE } from './names/load-name-model.js';
export { useNameModel } from './names/name-detector.js';
