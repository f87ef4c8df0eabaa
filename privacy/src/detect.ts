import { digitWindows } from './digit-windows.js';
import { joinBrokenLines } from './line-breaks.js';
import { isInsideLookalike } from './lookalike.js';
import { findTaggedNames, isCommonWord, personGoesOn } from './names/name-detector.js';
import { withoutAgentSignatures } from './names/agent-signatures.js';
import { withCapitalsSurnames } from './names/capitals-surnames.js';
import { addDeclinedNames } from './names/declined-names.js';
import { surnamesMentioned } from './names/later-mentions.js';
import { addOpeningNames } from './names/opening-names.js';
import { markedWords, mayFollowOrBeMarked, withoutMarked } from './names/marked-names.js';
import { addTaggedNames } from './names/tagged-names.js';
import type { Finding } from './pii-types.js';
import type { Candidate } from './recognizer.js';
import { DIGIT_RECOGNIZERS, TEXT_RECOGNIZERS } from './recognizers/all-recognizers.js';
import { namesBeforeContacts } from './recognizers/person.js';
import { resolveOverlaps } from './resolve-overlaps.js';

/**
 * No-break, narrow no-break, figure and thin spaces, as French, German and Polish typography writes phone
 * numbers and IBANs: each becomes a plain space for the recognizers. One UTF-16 unit for one, so offsets hold.
 */
const SPACE_LIKE_RE = /[\u00a0\u2007\u2009\u202f]/g;

/**
 * All PII in `text`: sorted by start, non-overlapping; values as written. Never logs what it finds.
 * `knownSurnames`: surnames of people other texts of the same request name in full, found here alone too.
 */
export function detect(original: string, knownSurnames?: ReadonlySet<string>): Finding[] {
  const s = scan(original, knownSurnames);
  const marked = s.candidates.some((c) => mayFollowOrBeMarked(s.text, c)) ? markedWords(s.text) : NONE;
  return s.settle(s.candidates, marked);
}

const NONE: ReadonlySet<string> = new Set();

/**
 * What detect reads in a text before it settles: the candidates; the surnames of the people the text names (to
 * look for in other texts); the candidates again with other texts' surnames looked for too, from what this
 * reading left (no recognizer or tagger runs twice); and how to settle candidates into findings, without the
 * people a text of the request marks as firms or works (marked-names.ts).
 */
function scan(
  original: string,
  knownSurnames?: ReadonlySet<string>,
): {
  text: string;
  candidates: Candidate[];
  surnames: ReadonlySet<string>;
  withKnown(known: ReadonlySet<string>): Candidate[];
  settle(all: readonly Candidate[], marked: ReadonlySet<string>): Finding[];
} {
  const spaced = original.replace(SPACE_LIKE_RE, ' ');
  // Words `man` hyphenated at a line's end, and names wrapped across lines, are read whole; findings go back
  // onto the text as written.
  const joined = joinBrokenLines(spaced);
  const text = joined?.text ?? spaced;
  const candidates: Candidate[] = [];
  for (const r of TEXT_RECOGNIZERS) r.find(text, candidates);
  // Recognizers that need a digit scan only the windows around digits.
  const windows = digitWindows(text);
  if (windows !== null) {
    const local: Candidate[] = [];
    for (const r of DIGIT_RECOGNIZERS) r.find(windows.text, local);
    for (const c of local) {
      const original = windows.toOriginal(c);
      if (original !== null) candidates.push(original);
    }
  }
  // Even when the tagger finds no name: its silence overrules a lone list surname ("Frauen", "Vater") or a given
  // name that is a common word ("Dan", "Elke").
  const tagged = findTaggedNames(text);
  const names = addTaggedNames(text, tagged, candidates, isCommonWord, knownSurnames);
  addOpeningNames(text, tagged, candidates, isCommonWord, personGoesOn);
  addDeclinedNames(text, candidates);
  // settle only appends to what it is given (namesBeforeContacts): the first `named` stay this reading's.
  const named = candidates.length;
  return {
    text,
    candidates,
    surnames: names.surnames,
    withKnown(known) {
      const more = candidates.slice(0, named);
      names.addKnown(more, known);
      return more;
    },
    settle(given, marked) {
      const all = withCapitalsSurnames(text, withoutMarked(text, given, marked));
      if (all.length === 0) return [];
      namesBeforeContacts(text, all.slice(), all);
      // A coding agent's commit trailer names no person ("Co-Authored-By: Claude <noreply@anthropic.com>").
      const kept = withoutAgentSignatures(text, all).filter((c) => c.type === 'EMAIL' || !isInsideLookalike(text, c.start, c.end));
      return resolveOverlaps(kept).map((s) => {
        const [start, end] = joined === null ? [s.start, s.end] : joined.toOriginal(s.start, s.end);
        return { type: s.type, start, end, value: original.slice(start, end) };
      });
    },
  };
}

/**
 * Every text of one request (its messages, system prompt, tool results): each as `detect` finds it, and then a
 * surname a text names in full found alone in the others too ("Please reply to Werner Emde." … "Emde says the
 * invoice is late."). A text that holds such a surname is looked at again from its first reading: the recognizers
 * and the tagger run once per text (a 76 KB conversation of 41 messages, 40 of them gaining a name another gives
 * in full: 15 ms when such texts were read twice, 9 ms now, 7 ms to read each once).
 */
export function detectAll(texts: readonly string[]): Finding[][] {
  const first = texts.map((t) => scan(t));
  const all = new Set(first.flatMap((r) => [...r.surnames]));
  const readings = first.map((own, i) => {
    if (all.size > 0) for (const s of surnamesMentioned(texts[i] as string, all)) if (!own.surnames.has(s)) return own.withKnown(all);
    return own.candidates;
  });
  // A word any text marks as a firm or a work ("le groupe Renault") is no lone person in any of them.
  let marked = NONE;
  if (readings.some((cs, i) => cs.some((c) => mayFollowOrBeMarked((first[i] as ReturnType<typeof scan>).text, c)))) {
    const union = new Set<string>();
    for (const r of first) for (const w of markedWords(r.text)) union.add(w);
    marked = union;
  }
  return first.map((r, i) => r.settle(readings[i] as Candidate[], marked));
}
