import type { Candidate } from './recognizer.js';

// Most recognizers only match text that contains a digit, and prose has few: rather than letting each of
// them scan the whole text, they scan only windows around digit runs (MARGIN characters either side,
// more than any recognizer's context window or value reaches from a digit), joined by blank lines, which
// no value spans and which end a clause for context. In digit-heavy text the windows would cover most of
// it, so the text is then scanned whole.

const DIGIT_RUN_RE = /\d+/g;
const MARGIN = 64;
const JOIN = '\n\n';
const WHOLE_TEXT_ABOVE = 0.6;
const EARLY_CHECK_AFTER = 4096;

interface Window {
  /** Offset in the original text. */
  start: number;
  end: number;
  /** Offset in the joined text. */
  at: number;
}

export interface DigitWindows {
  /** What the digit recognizers scan. */
  readonly text: string;
  /** The candidate's span in the original text, or null if it crosses a join. */
  toOriginal(c: Candidate): Candidate | null;
}

const IDENTITY = (c: Candidate): Candidate => c;

/** Windows around the digits of `text`, or null when it has none. */
export function digitWindows(text: string): DigitWindows | null {
  DIGIT_RUN_RE.lastIndex = 0;
  const spans: Array<[number, number]> = [];
  let covered = 0;
  for (let m = DIGIT_RUN_RE.exec(text); m !== null; m = DIGIT_RUN_RE.exec(text)) {
    const start = Math.max(0, m.index - MARGIN);
    const end = Math.min(text.length, m.index + m[0].length + MARGIN);
    const last = spans[spans.length - 1];
    if (last !== undefined && start <= last[1]) {
      covered += end - last[1];
      last[1] = end;
    } else {
      covered += end - start;
      spans.push([start, end]);
    }
    // Give up early when the text read so far is already mostly windows.
    const readTo = m.index + m[0].length;
    if (covered > text.length * WHOLE_TEXT_ABOVE || (readTo > EARLY_CHECK_AFTER && covered > readTo * WHOLE_TEXT_ABOVE)) {
      return { text, toOriginal: IDENTITY };
    }
  }
  if (spans.length === 0) return null;
  if (spans.length === 1 && spans[0]?.[0] === 0 && spans[0][1] === text.length) return { text, toOriginal: IDENTITY };

  const windows: Window[] = [];
  const parts: string[] = [];
  let at = 0;
  for (const [start, end] of spans) {
    windows.push({ start, end, at });
    parts.push(text.slice(start, end));
    at += end - start + JOIN.length;
  }
  return {
    text: parts.join(JOIN),
    toOriginal(c: Candidate): Candidate | null {
      // Binary search for the last window starting at or before c.start.
      let lo = 0;
      let hi = windows.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if ((windows[mid]?.at ?? 0) <= c.start) lo = mid;
        else hi = mid - 1;
      }
      const w = windows[lo];
      if (w === undefined || c.end - w.at > w.end - w.start) return null;
      return { type: c.type, start: w.start + (c.start - w.at), end: w.start + (c.end - w.at), rank: c.rank };
    },
  };
}
