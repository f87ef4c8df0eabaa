// UUIDs and hex digests are full of digit runs that pass Luhn or mod 11 by chance. Rather than scanning
// every text for them (hex letters are common in prose, which makes such a scan slow), each candidate is
// checked here: the run of hex digits and dashes around it is expanded (bounded) and, if that run is a
// UUID or a lowercase digest of 20+ characters, the candidate is dropped. Digests must not be
// IBAN-shaped: de89370400440532013000 is all hex characters too.

const MAX_RUN = 130;
const UUID_RE = /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/;
const DIGEST_RE = /^(?=[0-9a-f]*[a-f])[0-9a-f]{20,128}$/;
const IBAN_SHAPE_RE = /^[a-z]{2}\d{2}/;

function isHexOrDash(code: number): boolean {
  return (
    (code >= 48 && code <= 57) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102) || code === 45 /* - */
  );
}

function isWordChar(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
}

function isBoundary(text: string, i: number): boolean {
  return i < 0 || i >= text.length || text.charCodeAt(i) === 45 /* - */ || !isWordChar(text.charCodeAt(i));
}

/** Whether text[start, end) lies inside a UUID or a hex digest. */
export function isInsideLookalike(text: string, start: number, end: number): boolean {
  let from = start;
  while (from > 0 && start - from < MAX_RUN && isHexOrDash(text.charCodeAt(from - 1))) from--;
  let to = end;
  while (to < text.length && to - end < MAX_RUN && isHexOrDash(text.charCodeAt(to))) to++;
  if (to - from < 20) return false;
  const run = text.slice(from, to);
  // A UUID must be a whole token, not the hex-looking tail of a longer word.
  if (UUID_RE.test(run) && !isWordChar(text.charCodeAt(from - 1)) && !isWordChar(text.charCodeAt(to))) return true;
  // A digest may sit between dashes ("build-3f7a…"): the candidate must lie inside one whole part.
  let partStart = from;
  for (const part of run.split('-')) {
    const partEnd = partStart + part.length;
    if (
      start >= partStart &&
      end <= partEnd &&
      isBoundary(text, partStart - 1) &&
      isBoundary(text, partEnd) &&
      DIGEST_RE.test(part) &&
      !IBAN_SHAPE_RE.test(part)
    ) {
      return true;
    }
    partStart = partEnd + 1;
  }
  return false;
}
