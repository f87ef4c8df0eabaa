import type { PiiType } from './pii-types.js';

// Ranks decide overlaps between recognizers: the higher rank wins, then the longer span.
/** Types validated by a check digit (Luhn, mod 11, mod 97, …). */
export const RANK_CHECKSUM = 3;
/** Types reported only after their own context word ("passport", "DOB"): more specific than a format. */
export const RANK_CONTEXT = 2;
/** Types validated by format or a library. */
export const RANK_FORMAT = 1;

/** A span proposed by one recognizer, before overlaps are resolved. */
export interface Candidate {
  type: PiiType;
  start: number;
  end: number;
  rank: number;
}

/**
 * One recognizer per type (or family). `find` appends validated candidates to `out`; it must run in time
 * linear in `text.length` (bounded quantifiers only) and must not allocate per character.
 */
export interface Recognizer {
  readonly name: string;
  find(text: string, out: Candidate[]): void;
}
