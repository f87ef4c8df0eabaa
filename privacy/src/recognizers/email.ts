import { RANK_FORMAT } from '../recognizer.js';
import type { Candidate, Recognizer } from '../recognizer.js';

// Anchored on '@' (found with indexOf, far faster than a regex over prose): the local part is scanned
// backwards over at most 64 characters (RFC 5321 limit) and the domain matched with a sticky regex whose
// labels are separated by '.', which is not in the label class, so it cannot backtrack badly.

const MAX_LOCAL = 64;
const DOMAIN_RE = /[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){1,8}/y;
const TLD_RE = /^(?:[A-Za-z]{2,24}|xn--[A-Za-z0-9-]{1,59})$/;
const LABEL_RE = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

// Characters allowed in an unquoted local part (RFC 5322 atext plus '.').
const LOCAL_CHARS = new Uint8Array(128);
for (const c of "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+/=?^_`{|}~.-") {
  LOCAL_CHARS[c.charCodeAt(0)] = 1;
}

function isLocalChar(code: number): boolean {
  return code < 128 && LOCAL_CHARS[code] === 1;
}

function isAlnumOrUnderscore(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
}

/** Length of the longest prefix of `domain` that is a valid host name ending in a plausible TLD, or 0. */
function validDomainLength(domain: string): number {
  const labels = domain.split('.');
  let length = 0;
  let best = 0;
  for (let i = 0; i < labels.length; i++) {
    const label = labels[i] ?? '';
    if (!LABEL_RE.test(label)) break;
    length += (i === 0 ? 0 : 1) + label.length;
    if (i > 0 && TLD_RE.test(label)) best = length;
  }
  return best;
}

/** Whether the local part starting at `start` follows a URL's "scheme://" or "scheme://user:". */
function isUrlUserInfo(text: string, start: number): boolean {
  if (start >= 3 && text.startsWith('://', start - 3)) return true;
  if (text.charCodeAt(start - 1) !== 58 /* : */) return false;
  const scheme = text.lastIndexOf('://', start - 1);
  if (scheme === -1 || start - scheme > MAX_LOCAL + 3) return false;
  // The user name between "://" and ':' has no space, '/' or '@' in it.
  return !/[\s\/@]/.test(text.slice(scheme + 3, start - 1));
}

function find(text: string, out: Candidate[]): void {
  let at = text.indexOf('@');
  while (at !== -1) {
    let start = at;
    while (start > 0 && at - start <= MAX_LOCAL && isLocalChar(text.charCodeAt(start - 1))) start--;
    // Leading punctuation is far more often a quote or bracket around the address than part of it.
    while (start < at && !isAlnumOrUnderscore(text.charCodeAt(start))) start++;
    let next = at + 1;
    // "postgres://app@db.internal:5432", "https://user:secret@host": a URL's user (and password) and host.
    const userInfo = isUrlUserInfo(text, start);
    if (!userInfo && start < at && at - start <= MAX_LOCAL && text.charCodeAt(at - 1) !== 46 /* . */) {
      const local = text.slice(start, at);
      DOMAIN_RE.lastIndex = at + 1;
      const m = local.includes('..') ? null : DOMAIN_RE.exec(text);
      if (m !== null) {
        const domainLength = validDomainLength(m[0]);
        if (domainLength > 0) {
          const end = at + 1 + domainLength;
          out.push({ type: 'EMAIL', start, end, rank: RANK_FORMAT });
          next = end;
        }
      }
    }
    at = text.indexOf('@', next);
  }
}

export const emailRecognizer: Recognizer = { name: 'email', find };
