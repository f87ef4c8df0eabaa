import { RANK_FORMAT, type Candidate } from '../../src/recognizer.js';
import type { TaggedSpan } from '../../src/names/name-tagger.js';

/** A tagger span written by hand: `value`'s first place in `text`, with the margin the tagger would give it. */
export function span(text: string, value: string, kind: TaggedSpan['kind'], margin: number, extra: Partial<TaggedSpan> = {}): TaggedSpan {
  const start = text.indexOf(value);
  const second = value.indexOf(' ');
  return {
    kind,
    start,
    end: start + value.length,
    words: value.split(' ').length,
    firstConfidence: margin,
    restConfidence: second === -1 ? Infinity : margin,
    secondStart: second === -1 ? -1 : start + second + 1,
    opensSentence: start === 0,
    firstCommon: false,
    commonWords: 0,
    ...extra,
  };
}

/** A list match written by hand: `value`'s first place in `text`, ranked as the name lists rank theirs. */
export function listMatch(text: string, value: string): Candidate {
  const start = text.indexOf(value);
  return { type: 'PERSON', start, end: start + value.length, rank: RANK_FORMAT };
}

/** A rule that reads a span [start, end), asked of `value`'s first place in `text`. */
export function atValue(rule: (text: string, start: number, end: number) => boolean): (text: string, value: string) => boolean {
  return (text, value) => rule(text, text.indexOf(value), text.indexOf(value) + value.length);
}
