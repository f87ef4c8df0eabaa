import { detect } from '@gateway/privacy';
import { fnv1a, surnamesMentioned, tagNames, tokeniseForNames, wordInfo, type TagScorer } from '@gateway/privacy/internals';

// Silver labels for a novel from the shipped (commercial) model alone: what it finds reading each sentence by
// itself, plus the later mentions the detector's second pass finds when it reads the novel as one text ("Emma
// Woodhouse" ... "said Woodhouse", "Kowalskiej"). The second pass is the detector's own (privacy
// later-mentions.ts: seeds are full names it is sure of, or lone words it is sure of in sum, never a common word
// or a place), so the only labels beyond the model's own reading are mentions it propagated.

/** One sentence of a novel: its words and IOB2 tags, and whether it holds a lone mention only the novel-wide reading found. */
export interface SilverSentence {
  readonly words: readonly string[];
  readonly tags: readonly string[];
  /** Index among the novel's sentences, in text order. */
  readonly index: number;
  readonly propagated: boolean;
  /**
   * The words (indexes into `words`) of its propagated mentions: the only labels beyond the model's own reading,
   * and the ones a partial-label build (CorpusSource.partial) always trusts.
   */
  readonly trusted: readonly number[];
  /**
   * It holds a lone person only the whole reading found that is no word of a full name the novel gives (a lone
   * word the detector kept by its sum of votes, which over a whole novel's hundreds of mentions adds up for
   * German nouns: "Vater", "Haus"): such a sentence is never sampled.
   */
  readonly unsure: boolean;
}

interface Span {
  readonly start: number;
  readonly end: number;
}

/** Whether any of `spans` overlaps [start, end). */
const overlapsAny = (spans: readonly Span[], start: number, end: number): boolean => spans.some((s) => s.start < end && start < s.end);

const people = (text: string): Span[] => detect(text).filter((f) => f.type === 'PERSON');

/** Capitalised, three letters or more (an inner apostrophe or hyphen allowed), as later-mentions.ts seeds a surname. */
const NAME_WORD = /^\p{Lu}[\p{Ll}'’-]*\p{Ll}$/u;

/**
 * The words of the full names (two words or more) the whole reading found, less those the model's lexicon knows
 * in lower case ("Lady", "Captain", "Will"): the parts a lone later mention may be a case of.
 */
function fullNameParts(text: string, found: readonly Span[], scorer: TagScorer): Set<string> {
  const out = new Set<string>();
  for (const p of found) {
    const words = text.slice(p.start, p.end).split(/\s+/);
    if (words.length < 2) continue;
    for (const w of words) if (w.length >= 3 && NAME_WORD.test(w) && wordInfo(w, scorer.lexicon).common !== 1) out.add(w);
  }
  return out;
}

const POLISH_LETTERS = /[ąćęłńśźżĄĆĘŁŃŚŹŻ]/g;

/**
 * Every sentence of a novel given as paragraphs (tei-text.ts), labelled. PER: the detector's people, the novel
 * read as one text (one paragraph a line). LOC, ORG, MISC: the tagger's own spans that overlap no person. A
 * sentence is `propagated` when it holds a one-word person that the detector, reading that sentence alone, does
 * not find and that is a full name's part (or one of its cases), `unsure` when it holds one that is not.
 */
export function labelNovel(paragraphs: readonly string[], scorer: TagScorer): SilverSentence[] {
  const text = paragraphs.join('\n');
  const wholePeople = people(text);
  const parts = fullNameParts(text, wholePeople, scorer);
  // Polish cases ("Kowalskiej" of "Kowalska") where the novel is Polish: more than one letter in a thousand.
  const polish = (text.match(POLISH_LETTERS)?.length ?? 0) * 1000 > text.length;
  const out: SilverSentence[] = [];
  let offset = 0;
  let next = 0;
  for (const paragraph of paragraphs) {
    // detect's findings are sorted by start: walk them paragraph by paragraph.
    const inParagraph: Span[] = [];
    while (next < wholePeople.length && (wholePeople[next] as Span).start < offset + paragraph.length) {
      const p = wholePeople[next++] as Span;
      if (p.start >= offset && p.end <= offset + paragraph.length) inParagraph.push({ start: p.start - offset, end: p.end - offset });
    }
    const others = tagNames(scorer, paragraph).filter((s) => s.kind !== 'PER' && !overlapsAny(inParagraph, s.start, s.end));
    const t = tokeniseForNames(paragraph);
    let from = 0;
    for (let i = 1; i <= t.starts.length; i++) {
      if (i < t.starts.length && t.sentenceStart[i] !== 1) continue;
      const start = t.starts[from] as number;
      const end = t.ends[i - 1] as number;
      const sentencePeople = inParagraph.filter((p) => p.start >= start && p.end <= end);
      let propagated = false;
      let unsure = false;
      const trustedSpans: Span[] = [];
      const lone = sentencePeople.filter((p) => !/\s/.test(paragraph.slice(p.start, p.end)));
      if (lone.length > 0) {
        const alone = people(paragraph.slice(start, end)).map((p) => ({ start: p.start + start, end: p.end + start }));
        for (const p of lone) {
          if (overlapsAny(alone, p.start, p.end)) continue;
          // The detector's own matching of a surname's cases (later-mentions.ts), here against every full name's parts.
          if (surnamesMentioned(paragraph.slice(p.start, p.end), parts, polish).size > 0) {
            propagated = true;
            trustedSpans.push(p);
          } else unsure = true;
        }
      }
      const words: string[] = [];
      const tags: string[] = [];
      const trusted: number[] = [];
      let previous: Span | undefined;
      for (let k = from; k < i; k++) {
        const ws = t.starts[k] as number;
        const we = t.ends[k] as number;
        words.push(paragraph.slice(ws, we));
        const person = sentencePeople.find((p) => p.start < we && ws < p.end);
        const other = person === undefined ? others.find((s) => s.start < we && ws < s.end) : undefined;
        const span = person ?? other;
        const kind = person !== undefined ? 'PER' : other?.kind;
        tags.push(span === undefined ? 'O' : `${span === previous ? 'I' : 'B'}-${kind}`);
        if (overlapsAny(trustedSpans, ws, we)) trusted.push(k - from);
        previous = span;
      }
      out.push({ words, tags, index: out.length, propagated, trusted, unsure });
      from = i;
    }
    offset += paragraph.length + 1;
  }
  return out;
}

export interface SilverSampling {
  readonly seed: number;
  /** Sentences holding a propagated lone mention kept per novel, at most; as many others beside them. */
  readonly perNovel: number;
  /** Others per propagated sentence kept (1: an equal share). */
  readonly othersRatio: number;
  /** Sentences kept per language, at most (the novels' picks trimmed by hash rank). */
  readonly perLanguage: number;
  /** Sentences shorter or longer than these (tokens) are never picked. */
  readonly minTokens: number;
  readonly maxTokens: number;
}

/** Hash rank of a sentence: fixed by the seed, the novel and its index, not by order or by what else was read. */
const rank = (seed: number, novel: string, index: number): number => fnv1a(`self:${seed}:${novel}:${index}`);

/**
 * The sentences of one novel a silver source keeps: those holding a propagated lone mention (up to perNovel, by
 * hash rank), and othersRatio times as many of the rest (by hash rank); returned in text order.
 */
export function sampleNovel(novel: string, sentences: readonly SilverSentence[], s: SilverSampling): SilverSentence[] {
  const fits = sentences.filter((x) => !x.unsure && x.words.length >= s.minTokens && x.words.length <= s.maxTokens);
  const byRank = (a: SilverSentence, b: SilverSentence): number => rank(s.seed, novel, a.index) - rank(s.seed, novel, b.index) || a.index - b.index;
  const prop = fits.filter((x) => x.propagated).sort(byRank).slice(0, s.perNovel);
  const rest = fits.filter((x) => !x.propagated).sort(byRank).slice(0, Math.round(prop.length * s.othersRatio));
  return [...prop, ...rest].sort((a, b) => a.index - b.index);
}

/** One language's picks trimmed to perLanguage by hash rank, novels and sentences kept in their order. */
export function capLanguage(picks: readonly { novel: string; sentences: readonly SilverSentence[] }[], s: SilverSampling): { novel: string; sentences: SilverSentence[] }[] {
  // A rank of its own: the one that picked the sentences in sampleNovel ranks the few propagated ones of a novel
  // lower than its many others (each the lowest of its kind), and would trim the propagated ones first.
  const all = picks.flatMap((p) => p.sentences.map((x) => ({ novel: p.novel, x, r: fnv1a(`cap:${s.seed}:${p.novel}:${x.index}`) })));
  if (all.length <= s.perLanguage) return picks.map((p) => ({ novel: p.novel, sentences: [...p.sentences] }));
  const kept = new Set(all.sort((a, b) => a.r - b.r || (a.novel < b.novel ? -1 : a.novel > b.novel ? 1 : a.x.index - b.x.index)).slice(0, s.perLanguage).map((a) => a.x));
  return picks.map((p) => ({ novel: p.novel, sentences: p.sentences.filter((x) => kept.has(x)) }));
}

/**
 * Sentences as iob2-tsv (index, word, tag; a blank line after each sentence), each after a '#' line naming the
 * novel and the sentence, and, where it holds propagated mentions, `trusted=` and their words' indexes (the first
 * column's, from 1): what a partial-label build learns from (read-corpus.ts).
 */
export function iob2Tsv(picks: readonly { novel: string; sentences: readonly SilverSentence[] }[]): string {
  const lines: string[] = [];
  for (const p of picks) {
    for (const x of p.sentences) {
      const trusted = x.trusted.length > 0 ? ` trusted=${x.trusted.map((k) => k + 1).join(',')}` : '';
      lines.push(`# ${p.novel} ${x.index}${x.propagated ? ' propagated' : ''}${x.unsure ? ' unsure' : ''}${trusted}`);
      // A word holding a tab or line break cannot be written; the tokeniser makes none, but say so if it did.
      x.words.forEach((w, k) => {
        if (/[\t\n]/.test(w)) throw new Error(`${p.novel} ${x.index}: a token holds a tab or line break`);
        lines.push(`${k + 1}\t${w}\t${x.tags[k] as string}`);
      });
      lines.push('');
    }
  }
  return lines.join('\n');
}
