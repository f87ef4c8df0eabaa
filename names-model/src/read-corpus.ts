import { NAME_TAGS } from '@gateway/privacy/internals';
import { tokeniseForNames } from '@gateway/privacy/internals';
import type { CorpusSource } from './manifest.js';

/** One labelled sentence: words and their tag indexes into NAME_TAGS. */
export interface LabelledSentence {
  readonly words: string[];
  readonly tags: Uint8Array;
}

const TAG_INDEX = new Map<string, number>(NAME_TAGS.map((t, i) => [t, i]));
/** Europeana's running text has no sentence breaks: cut after a full stop, and never past this many words. */
const MAX_RUN = 60;

/** GermEval 2014's outer labels: OTH is MISC; a derivation or part of a name ("Kohlsche", "Kohl-Ära") is none. */
function germevalTag(raw: string): string {
  const tag = raw.trim();
  if (/(?:deriv|part)$/.test(tag)) return 'O';
  return tag.replace(/-OTH$/, '-MISC');
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

/** Sentences of one corpus file's text, in file order. */
export function parseCorpus(source: CorpusSource, raw: string): LabelledSentence[] {
  const text = source.repair === 'latin1-read-as-cp1251' ? repairCp1251(raw) : raw;
  const out: LabelledSentence[] = [];
  let words: string[] = [];
  let tags: number[] = [];
  const flush = (): void => {
    if (words.length > 0) out.push(sentence(words, tags));
    words = [];
    tags = [];
  };
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '') {
      if (source.format !== 'bio-space') flush();
      continue;
    }
    if ((source.format === 'germeval-tsv' || source.format === 'iob2-tsv') && line.startsWith('#')) continue;
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
    } else {
      const cut = line.lastIndexOf(' ');
      word = line.slice(0, cut);
      tag = line.slice(cut + 1);
    }
    if (word === '' || word === '-DOCSTART-') continue;
    if (source.format === 'bio-space') {
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
    }
    const last = words[words.length - 1];
    if (source.format === 'bio-space' && (((last === '.' || last === '!' || last === '?') && tags.length > 3) || words.length >= MAX_RUN)) flush();
  }
  flush();
  return out;
}
