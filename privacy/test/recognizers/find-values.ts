import type { Candidate, Recognizer } from '../../src/recognizer.js';

/** The values a recognizer proposes for `text`, in order (before overlap resolution). */
export function findValues(recognizer: Recognizer, text: string): string[] {
  const out: Candidate[] = [];
  recognizer.find(text, out);
  return out.sort((a, b) => a.start - b.start).map((c) => text.slice(c.start, c.end));
}
