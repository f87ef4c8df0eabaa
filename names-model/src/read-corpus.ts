import { NAME_TAGS } from '@gateway/privacy/internals';
import { tokeniseForNames } from '@gateway/privacy/internals';
import type { CorpusSource } from './manifest.js';
import { parseGumConllu } from './read-gum.js';

/** One labelled sentence: words and their tag indexes into NAME_TAGS. */
export interface LabelledSentence {
  readonly words: string[];
  readonly tags: Uint8Array;
  /**
   * Only in a partial-label source (CorpusSource.partial): 1 where the tag is trusted, 0 where the word's label
   * is unknown (the trainer neither learns from it nor counts it; perceptron.ts).
   */
  readonly trusted?: Uint8Array;
}

const TAG_INDEX = new Map<string, number>(NAME_TAGS.map((t, i) => [t, i]));
/** Europeana's and ZEFYS's running text has no sentence breaks: cut after a full stop, and never past this many words. */
const MAX_RUN = 60;

/** GermEval 2014's outer labels: OTH is MISC; a derivation or part of a name ("Kohlsche", "Kohl-Ära") is none. */
function germevalTag(raw: string): string {
  const tag = raw.trim();
  if (/(?:deriv|part)$/.test(tag)) return 'O';
  return tag.replace(/-OTH$/, '-MISC');
}

/**
 * KPWr's fine classes (n82) to the tagger's four: people (real and fictional) PER; places and facilities LOC;
 * organisations ORG; works, events, brands, gods, animals, nationalities MISC; a person's adjective
 * ("kopernikański"), a house or phone number none.
 */
function kpwrTag(raw: string): string {
  const m = /^([BI])-nam_([a-z]+)(?:_([a-z_]+))?$/.exec(raw.trim());
  if (m === null) return 'O';
  const [, bio, kind, sub = ''] = m;
  if (kind === 'liv') return sub === 'person' || sub === 'character' ? `${bio}-PER` : `${bio}-MISC`;
  if (kind === 'loc' || kind === 'fac') return `${bio}-LOC`;
  if (kind === 'org') return `${bio}-ORG`;
  if (kind === 'num' || (kind === 'adj' && sub === 'person')) return 'O';
  return `${bio}-MISC`;
}

/** WNUT 17's types to the four: person PER, location LOC, corporation and group ORG, product and creative work MISC. */
const WNUT_TYPES: Readonly<Record<string, string>> = {
  person: 'PER', location: 'LOC', corporation: 'ORG', group: 'ORG', product: 'MISC', 'creative-work': 'MISC',
};
function socialTag(raw: string): string {
  const m = /^([BI])-(.+)$/.exec(raw.trim());
  if (m === null) return 'O';
  const type = WNUT_TYPES[m[2] as string] ?? m[2];
  return `${m[1]}-${type}`;
}

function tagIndex(raw: string): number {
  const tag = raw.trim();
  if (tag === 'O' || tag === '') return 0;
  const m = /^([BI])-(PER|LOC|ORG|MISC)/.exec(tag);
  if (m === null) return 0;
  return TAG_INDEX.get(`${m[1]}-${m[2]}`) ?? 0;
}

/** IOB1 (I- opening a span, as Europeana's French file writes, and io-tsv) to the IOB2 the tagger uses. */
function toIob2(tags: Uint8Array): void {
  let prev = 0;
  for (let i = 0; i < tags.length; i++) {
    const t = tags[i] as number;
    if (t !== 0 && t % 2 === 0 && prev !== t && prev !== t - 1) tags[i] = t - 1;
    prev = tags[i] as number;
  }
}

let cp1251Reverse: Map<string, string> | undefined;
/** The Latin-1 character each Windows-1251 character was read from. */
function repairCp1251(text: string): string {
  if (cp1251Reverse === undefined) {
    cp1251Reverse = new Map();
    const decoder = new TextDecoder('windows-1251');
    for (let b = 0x80; b <= 0xff; b++) cp1251Reverse.set(decoder.decode(new Uint8Array([b])), String.fromCharCode(b));
  }
  const map = cp1251Reverse;
  return text.replace(/[\u0400-\u04ff\u2010-\u203a]/g, (c) => map.get(c) ?? c);
}

function sentence(words: string[], tags: number[]): LabelledSentence {
  const t = Uint8Array.from(tags);
  toIob2(t);
  return { words, tags: t };
}

// LitBank's nested layers label every mention of a person ("a man who…", "his wife", "the printer") and keep a
// title's tail in the span ("Charles Musgrove , Esq. of Uppercross"). The tagger learns names: of each span only
// the capitalised words it opens with count ("Charles Musgrove"), and none where it opens with a determiner or a
// pronoun, or is one sentence-opening word the same file writes in lower case elsewhere ("Women", "Mother").
const LITBANK_TYPES: Readonly<Record<string, string>> = { PER: 'PER', GPE: 'LOC', LOC: 'LOC', FAC: 'LOC', ORG: 'ORG' };
const NOT_A_NAME_OPENING = new Set([
  'the', 'a', 'an', 'his', 'her', 'my', 'your', 'our', 'their', 'its', 'this', 'that', 'these', 'those', 'some', 'every',
  'no', 'all', 'both', 'each', 'many', 'i', 'he', 'she', 'we', 'they', 'you', 'it',
  'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten',
]);
/** A title alone is not a name ("Sir", "Lady"): only with the name it goes with; nor is a deity a person to hide. */
const TITLE_ALONE = new Set(['god', 'heaven', 'providence', 'sir', 'lady', 'lord', 'mr', 'mr.', 'mrs', 'mrs.', 'miss', 'madam', 'madame', 'captain', 'doctor', 'dr.', 'master', 'mistress']);

/** LitBank's `entities/tsv` files: word, then its nested BIO layers; blank lines between paragraphs. */
function parseLitBank(text: string): LabelledSentence[] {
  const paragraphs: { words: string[]; layers: string[][] }[] = [];
  let current: { words: string[]; layers: string[][] } = { words: [], layers: [] };
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '') {
      if (current.words.length > 0) paragraphs.push(current);
      current = { words: [], layers: [] };
      continue;
    }
    const cols = line.split('\t');
    current.words.push(cols[0] ?? '');
    current.layers.push(cols.slice(1).filter((c) => c !== ''));
  }
  if (current.words.length > 0) paragraphs.push(current);
  const lowerMidSentence = new Set<string>();
  for (const p of paragraphs) p.words.forEach((w, i) => i > 0 && w === w.toLowerCase() && lowerMidSentence.add(w));
  const capitalised = (w: string): boolean => /^\p{Lu}/u.test(w);
  const out: LabelledSentence[] = [];
  for (const { words, layers } of paragraphs) {
    const depth = Math.max(0, ...layers.map((l) => l.length));
    const spans: { start: number; end: number; type: string }[] = [];
    for (let d = 0; d < depth; d++) {
      for (let i = 0; i < words.length; i++) {
        const m = /^B-(\w+)$/.exec(layers[i]?.[d] ?? 'O');
        const type = m === null ? undefined : LITBANK_TYPES[m[1] as string];
        if (type === undefined) continue;
        let end = i + 1;
        while (end < words.length && layers[end]?.[d] === `I-${m?.[1] ?? ''}`) end++;
        let run = i;
        while (run < end && capitalised(words[run] as string)) run++;
        const first = words[i] as string;
        if (run === i || NOT_A_NAME_OPENING.has(first.toLowerCase()) || (run === i + 1 && TITLE_ALONE.has(first.toLowerCase()))) continue;
        const sentenceOpening = i === 0 || /^[.!?"“”‘’']$/.test(words[i - 1] as string);
        if (run === i + 1 && sentenceOpening && lowerMidSentence.has(first.toLowerCase())) continue;
        spans.push({ start: i, end: run, type });
      }
    }
    // Longest first, a person before a place of the same length; overlapping spans lose.
    spans.sort((a, b) => b.end - b.start - (a.end - a.start) || (a.type === 'PER' ? -1 : b.type === 'PER' ? 1 : 0));
    const tags = new Array<number>(words.length).fill(0);
    for (const sp of spans) {
      if (tags.slice(sp.start, sp.end).some((t) => t !== 0)) continue;
      for (let k = sp.start; k < sp.end; k++) tags[k] = tagIndex(`${k === sp.start ? 'B' : 'I'}-${sp.type}`);
    }
    // Paragraphs into sentences: cut after a full stop, question or exclamation mark.
    let from = 0;
    for (let i = 0; i < words.length; i++) {
      if (i === words.length - 1 || words[i] === '.' || words[i] === '!' || words[i] === '?') {
        out.push({ words: words.slice(from, i + 1), tags: Uint8Array.from(tags.slice(from, i + 1)) });
        from = i + 1;
      }
    }
  }
  return out;
}

/** Sentences of one corpus file's text, in file order. */
export function parseCorpus(source: CorpusSource, raw: string): LabelledSentence[] {
  if (source.format === 'litbank-tsv') return parseLitBank(raw);
  if (source.format === 'gum-conllu') return parseGumConllu(raw);
  // Running text: word and tag per line, sentences cut here (Europeana's files and ZEFYS's have none).
  const running = source.format === 'bio-space' || source.format === 'bio-tab';
  const text = source.repair === 'latin1-read-as-cp1251' ? repairCp1251(raw) : raw;
  const out: LabelledSentence[] = [];
  let words: string[] = [];
  let tags: number[] = [];
  // A partial-label source: the '#' line before a sentence lists its trusted words (self-training.ts iob2Tsv).
  const partial = source.partial !== undefined;
  const trustOwn = new Set<string>(source.partial?.trustOwn ?? []);
  if (partial && source.format !== 'iob2-tsv') throw new Error(`${source.id}: partial labels are read from iob2-tsv only`);
  let trustedIndexes = new Set<string>();
  let trusted: number[] = [];
  const flush = (): void => {
    if (words.length > 0) out.push(partial ? { ...sentence(words, tags), trusted: Uint8Array.from(trusted) } : sentence(words, tags));
    words = [];
    tags = [];
    trusted = [];
    trustedIndexes = new Set();
  };
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '') {
      // Europeana's blank lines mean nothing; elsewhere one ends a sentence (or, in ZEFYS, a document).
      if (source.format !== 'bio-space') flush();
      continue;
    }
    if ((source.format === 'germeval-tsv' || source.format === 'iob2-tsv') && line.startsWith('#')) {
      if (partial) trustedIndexes = new Set(/ trusted=([\d,]+)/.exec(line)?.[1]?.split(',') ?? []);
      continue;
    }
    let word: string;
    let tag: string;
    if (source.format === 'conll-indexed') {
      const cols = line.split('\t');
      word = cols[1] ?? '';
      tag = cols[cols.length - 1] ?? 'O';
    } else if (source.format === 'io-tsv') {
      // A bare type: written as I-, which toIob2 turns into B- where a name opens.
      const cols = line.split('\t');
      word = cols[0] ?? '';
      const type = (cols[1] ?? 'O').trim();
      tag = type === 'O' || type === '' ? 'O' : `I-${type}`;
    } else if (source.format === 'iob2-tsv') {
      // Universal NER's OTH (nationalities, events, works) is CoNLL's MISC; its stray B-O is O.
      const cols = line.split('\t');
      word = cols[1] ?? '';
      tag = (cols[2] ?? 'O').replace(/-OTH$/, '-MISC');
    } else if (source.format === 'germeval-tsv') {
      const cols = line.split('\t');
      word = cols[1] ?? '';
      tag = germevalTag(cols[2] ?? 'O');
    } else if (source.format === 'social-tab') {
      // A user handle ("@colgo") is labelled as a person in the Broad Twitter Corpus: here it is none, so that
      // "@types/node" or "@Override" in agent text is never taught as a name.
      const cols = line.split('\t');
      word = cols[0] ?? '';
      tag = word.startsWith('@') ? 'O' : socialTag(cols[1] ?? 'O');
    } else if (source.format === 'bio-tab') {
      const cols = line.split('\t');
      word = cols[0] ?? '';
      tag = cols[1] ?? 'O';
    } else {
      const cut = line.lastIndexOf(' ');
      word = line.slice(0, cut);
      tag = source.format === 'kpwr-space' ? kpwrTag(line.slice(cut + 1)) : line.slice(cut + 1);
    }
    if (word === '' || word === '-DOCSTART-') continue;
    if (running) {
      // Europeana's OCR words keep their punctuation ("Dekker,"): split as the proxy's tokeniser splits text,
      // the label on the word's letters, O on the punctuation.
      let t = tagIndex(tag);
      // Parts of the Dutch and German files open every word of a name with B- ("J./B-PER M./B-PER van/B-PER
      // Dijk/B-PER"): a B- right after a word of the same type, nothing between, goes on the same name. Names
      // side by side are apart by punctuation there ("Kalff,/B-PER Sichterman,/B-PER"), which splitting keeps.
      const before = tags[tags.length - 1];
      if (t % 2 === 1 && before !== undefined && before !== 0 && (before - 1) >> 1 === (t - 1) >> 1) t += 1;
      const pieces = tokeniseForNames(word);
      for (let k = 0; k < pieces.starts.length; k++) {
        const piece = word.slice(pieces.starts[k], pieces.ends[k]);
        const letters = /[\p{L}\p{N}]/u.test(piece);
        words.push(piece);
        tags.push(letters ? t : 0);
        if (letters && t % 2 === 1) t += 1;
      }
    } else {
      words.push(word);
      tags.push(tagIndex(tag));
      if (partial) trusted.push(trustedIndexes.has(line.split('\t')[0] ?? '') || trustOwn.has(tag.replace(/^[BI]-/, '')) ? 1 : 0);
    }
    const last = words[words.length - 1];
    if (running && (((last === '.' || last === '!' || last === '?') && tags.length > 3) || words.length >= MAX_RUN)) flush();
  }
  flush();
  return out;
}
