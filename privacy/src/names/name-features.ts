import {
  COMMON_WORD_GIVEN_NAME_SET,
  GIVEN_NAME_SET,
  LONE_SURNAME_SET,
  PARTICLES,
  PLACE_PREFIXES,
  PLACE_WORDS,
  STOP_WORDS,
  SURNAME_SET,
  TITLE_SET,
  WORD_LIKE_GIVEN_NAME_SET,
} from '../recognizers/person-words.js';
import { lexiconMask, type LexiconSet } from './lexicon-sets.js';
import { registersOfWords } from './text-register.js';
import { clusterIndexOf, coarseClusterOf, fineAt, hasWide, NO_CLUSTERS, wideAt, type WordClusters } from './word-clusters.js';

// Features of one word for the name tagger, hashed to integers: the word, its affixes and shape, the two words on
// each side, the two tags before it, and the house's name lists and context rules (title before, place word
// after, known given name or surname, Polish case endings stripped), and the word clusters of the word and its
// neighbours (word-clusters.ts). Hashing keeps the model a flat weight table
// with no vocabulary to ship. The trainer (names-model/) and the proxy call exactly this code.

export const NAME_TAGS = ['O', 'B-PER', 'I-PER', 'B-LOC', 'I-LOC', 'B-ORG', 'I-ORG', 'B-MISC', 'I-MISC'] as const;
export type NameTag = (typeof NAME_TAGS)[number];
export const TAG_COUNT = NAME_TAGS.length;
export const TAG_O = 0;
export const TAG_B_PER = 1;
export const TAG_I_PER = 2;
/** Most features a word can have: the size of the buffer `wordFeatures` fills. */
export const MAX_FEATURES = 60;
/** The largest `templates` value (NameLexicon): every extra template bit this code knows. */
export const MAX_TEMPLATES = 3;

const PLACE_PREFIX_SET: ReadonlySet<string> = new Set(PLACE_PREFIXES);
/** Lower-case words that may stand inside a name ("Ludwig van Beethoven", "Miguel de la Torre"). */
const PARTICLE_WORDS: ReadonlySet<string> = new Set(PARTICLES.flatMap((p) => p.split(' ')).concat(['y', 'e', 'und']));
/** Polish case endings, longest first: "Wiśniewskim" → "Wiśniewski", "Kowalczyka" → "Kowalczyk". */
const POLISH_ENDINGS = ['iego', 'ego', 'emu', 'owi', 'iej', 'em', 'om', 'ie', 'im', 'ą', 'ę', 'a', 'u', 'y', 'i', 'm'];
const POLISH_RESTORE = ['', 'i', 'a'];
const ROMAN_RE = /^[IVX]{1,4}$/;

export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Template id and value hash → one feature id (murmur3's finaliser mixes the pair). */
function mix(template: number, value: number): number {
  let h = Math.imul(template + 1, 0x9e3779b1) ^ value;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Whether the character `c` is a capital letter (any script). */
export function isUpper(c: string): boolean {
  const code = c.charCodeAt(0);
  // ASCII first: no string is made for the common case.
  if (code < 0x80) return code >= 0x41 && code <= 0x5a;
  return c !== c.toLowerCase() && c === c.toUpperCase();
}

/** Xx, X'Xx, Xx-Xx, X, x, d, X.: each run of one character class collapsed to one symbol. */
function shapeOf(w: string): string {
  let out = '';
  let last = '';
  for (let i = 0; i < w.length && out.length < 8; i++) {
    const c = w.charAt(i);
    let k: string;
    if (c >= '0' && c <= '9') k = 'd';
    else if (c !== c.toLowerCase()) k = 'X';
    else if (c !== c.toUpperCase()) k = 'x';
    else k = c;
    if (k !== last) out += k;
    last = k;
  }
  return out;
}

function lengthBucket(n: number): number {
  return n <= 3 ? n : n <= 5 ? 4 : n <= 8 ? 5 : n <= 12 ? 6 : 7;
}

/**
 * Whether the tagger scores word i at all. Names are capitalised in all seven languages, so only capitalised
 * words (a particle opening or inside a name, "van Gogh", and an initial, "M.") are scored; every other word is O. A word in ALL CAPS, with a digit or
 * underscore, or camel-cased past a short prefix ("UserService", but not "McDonald", "DiCaprio") is an
 * identifier or heading, never scored: code and logs stay quiet.
 */
export function isScorable(words: readonly string[], i: number, prevTag: number): boolean {
  const w = words[i] as string;
  const first = w.charAt(0);
  if (!isUpper(first)) return PARTICLE_WORDS.has(w) && particleBeforeName(words, i);
  if (w.length > 30) return false;
  if (isInitial(w)) return true;
  // A regnal number inside a name: "Jan Paweł II", "Karol VI Habsburg".
  if ((prevTag === TAG_B_PER || prevTag === TAG_I_PER) && ROMAN_RE.test(w)) return true;
  let lowers = 0;
  for (let k = 1; k < w.length; k++) {
    const c = w.charAt(k);
    if ((c >= '0' && c <= '9') || c === '_') return false;
    if (c !== c.toLowerCase()) {
      // An inner capital: fine after an apostrophe or hyphen or a 1-3 letter prefix (Mc, Mac, Di, Le).
      const before = w.charAt(k - 1);
      if (before !== "'" && before !== '’' && before !== '-' && k > 3) return false;
    } else if (c !== c.toUpperCase()) lowers += 1;
  }
  return w.length === 1 || lowers > 0;
}

/** An initial: "Charles M. Schulz", "J. H. Dekker" (the tokeniser keeps its full stop); its letter is a capital. */
function isInitial(w: string): boolean {
  return w.length === 2 && w.charCodeAt(1) === 0x2e;
}

/** A particle that may open or continue a name: a capitalised word follows, or another particle and then one ("van der Bellen", "de la Torre"). */
function particleBeforeName(words: readonly string[], i: number): boolean {
  const next = words[i + 1];
  if (next === undefined || next === '') return false;
  if (isUpper(next.charAt(0))) return true;
  const after = words[i + 2];
  return PARTICLE_WORDS.has(next) && after !== undefined && after !== '' && isUpper(after.charAt(0));
}

/** What the features need of one word, whatever its context: computed once per distinct word (see wordInfo). */
export interface WordInfo {
  readonly lowerHash: number;
  readonly shapeHash: number;
  /** Hash of the last three letters, lower-cased: a neighbour's ending (case, verb form, article). */
  readonly suffixHash: number;
  /** 1: a capitalised word whose lower-case form the training text writes mid sentence (the lexicon). */
  readonly common: number;
  /** Known given name (1 plain, 2 word-like, 3 common word) × 4 + known surname (1 lone, 2 common word). */
  readonly gazetteer: number;
  /** The word's fine cluster + 1 and coarse group + 1 (0: a word too rare in training to have one). */
  readonly fine: number;
  readonly coarse: number;
  /** Its wide cluster + 1 (0: none), capitalisation grade and wide cluster's name grade + 1 (word-clusters.ts). */
  readonly wide: number;
  readonly capGrade: number;
  readonly nameGrade: number;
  /** Bit i: the word, lower-cased, is in the model's word list i (lexicon-sets.ts); 0 when it has none. */
  readonly lists: number;
  /** The word's own features (word, affixes, shape, length, lists): their ids. */
  readonly lexical: Uint32Array;
}

// Words repeat (names above all), so each distinct word's hashes and lexical features are kept, per lexicon; a
// map is emptied when it grows past the cap, which bounds memory and changes no result.
const WORD_CACHE_CAP = 50_000;
const wordCaches = new WeakMap<NameLexicon, Map<string, WordInfo>>();

/** What the features look words up in besides the lists, learnt from the training text: both ship in the model. */
export interface NameLexicon {
  /** The lower-case lexicon (below), LEXICON_BITS bits, or none. */
  readonly common: Uint32Array;
  readonly clusters: WordClusters;
  /** Word lists from outside the training text (software names, dictionaries), or none (a model before them). */
  readonly sets?: readonly LexiconSet[];
  /** Whether the model has register features (text-register.ts); a model before them has none and scores as it did. */
  readonly register?: boolean;
  /** Bits of the extra context templates the model was trained with (contextFeatures); 0 or absent: none, as before. */
  readonly templates?: number;
}

const NO_LEXICON: NameLexicon = { common: new Uint32Array(0), clusters: NO_CLUSTERS };

// The lower-case lexicon: a Bloom filter (two probes) of the words the training text writes in lower case mid
// sentence. A capitalised word whose lower-case form is in it ("Ieri", "Ayer", "Volgens", "Grace") is likely a
// sentence's first word or a common word, not a name; the model learns how much that counts. It ships in the
// model file; the trainer builds it from the train part before training.
export const LEXICON_BITS = 1 << 21;

function lexiconProbes(lowerHash: number): [number, number] {
  return [lowerHash & (LEXICON_BITS - 1), mix(99, lowerHash) & (LEXICON_BITS - 1)];
}

export function addToLexicon(bits: Uint32Array, lower: string): void {
  for (const p of lexiconProbes(fnv1a(lower))) bits[p >>> 5] = (bits[p >>> 5] as number) | (1 << (p & 31));
}

function inLexicon(lexicon: Uint32Array, lowerHash: number): boolean {
  if (lexicon.length === 0) return false;
  for (const p of lexiconProbes(lowerHash)) if (((lexicon[p >>> 5] as number) & (1 << (p & 31))) === 0) return false;
  return true;
}

export function wordInfo(w: string, lexicon: NameLexicon = NO_LEXICON): WordInfo {
  let cache = wordCaches.get(lexicon);
  if (cache === undefined) wordCaches.set(lexicon, (cache = new Map()));
  const hit = cache.get(w);
  if (hit !== undefined) return hit;
  if (cache.size >= WORD_CACHE_CAP) cache.clear();
  const lower = w.toLowerCase();
  const lowerHash = fnv1a(lower);
  const shapeHash = fnv1a(shapeOf(w));
  const given = GIVEN_NAME_SET.has(w) ? 1 : WORD_LIKE_GIVEN_NAME_SET.has(w) ? 2 : COMMON_WORD_GIVEN_NAME_SET.has(w) ? 3 : 0;
  const surname = LONE_SURNAME_SET.has(w) ? 1 : SURNAME_SET.has(w) ? 2 : 0;
  const lexical: number[] = [mix(0, 0), mix(1, lowerHash)];
  const len = lower.length;
  if (len > 2) {
    lexical.push(mix(2, fnv1a(lower.slice(-2))), mix(3, fnv1a(lower.slice(-3))), mix(5, fnv1a(lower.slice(0, 2))), mix(6, fnv1a(lower.slice(0, 3))));
  }
  if (len > 4) lexical.push(mix(4, fnv1a(lower.slice(-4))), mix(33, fnv1a(lower.slice(0, 4))));
  if (len > 5) lexical.push(mix(34, fnv1a(lower.slice(-5))));
  lexical.push(mix(7, shapeHash), mix(8, lengthBucket(len)), mix(23, given * 4 + surname));
  if (given === 0 && surname === 0) {
    const stem = polishStemKnown(w);
    if (stem !== 0) lexical.push(mix(24, stem));
  }
  if (STOP_WORDS.has(w)) lexical.push(mix(26, 1));
  // An initial ("C.", "M.") is no common word, whatever abbreviation shares its letters.
  const common = lower !== w && !isInitial(w) && inLexicon(lexicon.common, lowerHash) ? 1 : 0;
  lexical.push(mix(37, common * 8 + Math.min(given * 4 + surname, 7)));
  // Clusters are keyed by the word as written; most words are in lower case already. One lookup gives all.
  const clusters = lexicon.clusters;
  const at = clusterIndexOf(clusters, lower === w ? lowerHash : fnv1a(w));
  const fine = fineAt(clusters, at);
  const coarse = coarseClusterOf(clusters, fine);
  lexical.push(mix(40, fine), mix(41, coarse * 2 + common));
  const wide = wideAt(clusters, at);
  let capGrade = 0;
  let nameGrade = 0;
  // A model without wide clusters (PTAG3) gets none of their features, so it scores as it did. The grades mean the
  // same in every language: a model learns them from the languages it has labels for and reads them in the rest.
  if (hasWide(clusters)) {
    let wideCoarse = 0;
    if (wide !== 0) {
      capGrade = clusters.wordClass[at] as number;
      nameGrade = (clusters.clusterClass[wide - 1] as number) + 1;
      wideCoarse = (clusters.wideCoarseOf[wide - 1] as number) + 1;
    }
    lexical.push(mix(46, capGrade * 32 + nameGrade), mix(47, capGrade * 2 + common), mix(51, wide), mix(52, wideCoarse * 2 + common));
  }
  // Word lists: a model without them (PTAG4 and older) gets none of these features, so it scores as it did. The
  // list bits are crossed with the name lists: "Jackson" in a software list and the surname list, "Brotli" in the
  // software list alone, weigh differently, as training finds.
  const sets = lexicon.sets;
  let lists = 0;
  if (sets !== undefined && sets.length > 0) {
    lists = lexiconMask(sets, lowerHash);
    // A word in no list gets no feature for it: such words (most names) score from what they scored from before.
    if (lists !== 0) lexical.push(mix(55, lists), mix(56, lists * 8 + Math.min(given * 4 + surname, 7)));
  }
  const info: WordInfo = {
    lowerHash,
    shapeHash,
    suffixHash: fnv1a(lower.slice(-3)),
    common,
    gazetteer: given * 4 + surname,
    fine,
    coarse,
    wide,
    capGrade,
    nameGrade,
    lists,
    lexical: Uint32Array.from(lexical),
  };
  cache.set(w, info);
  return info;
}

/** The words of one text (or sentence) and where its sentences start: what contextual features read. */
export class NameFeatureContext {
  private readonly infos: (WordInfo | undefined)[];
  /** Each word's sentence register (text-register.ts), for a model with register features; else null. */
  private readonly registers: Uint8Array | null;
  private readonly templates: number;

  /** `registers`: the detector's, from the text (words far from a capital are '' there); else read from the words. */
  constructor(
    readonly words: readonly string[],
    readonly sentenceStart: Uint8Array,
    private readonly lexicon: NameLexicon = NO_LEXICON,
    registers?: Uint8Array,
  ) {
    this.infos = new Array<WordInfo | undefined>(words.length);
    this.registers = lexicon.register === true ? (registers ?? registersOfWords(words, sentenceStart)) : null;
    this.templates = lexicon.templates ?? 0;
  }

  info(i: number): WordInfo {
    let info = this.infos[i];
    if (info === undefined) this.infos[i] = info = wordInfo(this.words[i] as string, this.lexicon);
    return info;
  }

  /** Hash of the lower-cased word at i, or of a boundary marker outside the sentence. */
  private wordHash(i: number, from: number): number {
    if (i < 0 || i >= this.words.length) return 1;
    if (i < from) return 2;
    return this.info(i).lowerHash;
  }

  private shape(i: number, from: number): number {
    if (i < 0 || i >= this.words.length || i < from) return 3;
    return this.info(i).shapeHash;
  }

  /** The first word of i's sentence. */
  private sentenceFrom(i: number): number {
    let k = i;
    while (k > 0 && this.sentenceStart[k] !== 1 && i - k < 3) k -= 1;
    return this.sentenceStart[k] === 1 ? k : k - 1;
  }

  /** Writes word i's contextual feature ids into `out` (its lexical ones are `info(i).lexical`); returns how many. */
  contextFeatures(i: number, prevTag: number, prev2Tag: number, out: Uint32Array): number {
    const info = this.info(i);
    const from = this.sentenceFrom(i);
    const nextFrom = i + 1 < this.words.length && this.sentenceStart[i + 1] === 1 ? i + 1 : -1;
    const next = nextFrom === -1 ? this.wordHash(i + 1, 0) : 4;
    const next2 = nextFrom === -1 && !(i + 2 < this.words.length && this.sentenceStart[i + 2] === 1) ? this.wordHash(i + 2, 0) : 4;
    const nextShape = nextFrom === -1 ? this.shape(i + 1, 0) : 4;
    const prev = this.wordHash(i - 1, from);
    const prev2 = this.wordHash(i - 2, from);
    const prevShape = this.shape(i - 1, from);
    const lh = info.lowerHash;
    const atStart = i === from ? 1 : 0;
    let n = 0;
    out[n++] = mix(9, prev);
    out[n++] = mix(10, prev2 ^ Math.imul(prev, 31));
    out[n++] = mix(11, next);
    out[n++] = mix(12, next2 ^ Math.imul(next, 31));
    out[n++] = mix(13, prevShape);
    out[n++] = mix(14, nextShape);
    out[n++] = mix(15, prevTag);
    out[n++] = mix(16, prev2Tag * 16 + prevTag);
    out[n++] = mix(17, lh ^ Math.imul(prevTag + 1, 0x27d4eb2d));
    out[n++] = mix(18, lh ^ Math.imul(prev, 0x165667b1));
    out[n++] = mix(19, lh ^ Math.imul(next, 0x165667b1));
    out[n++] = mix(20, atStart * 8 + Math.min(7, (this.words[i] as string).length));
    if (atStart === 1) {
      out[n++] = mix(21, lh);
      out[n++] = mix(32, info.gazetteer);
    }
    out[n++] = mix(38, info.common * 4 + atStart * 2 + (nextShape === info.shapeHash ? 1 : 0));
    if (i > from) out[n++] = mix(39, this.info(i - 1).common * 16 + prevTag);
    out[n++] = mix(22, prevShape ^ Math.imul(nextShape, 0x27d4eb2d) ^ info.shapeHash);
    if (i > from) {
      const p = this.words[i - 1] as string;
      const pp = i - 2 >= from ? (this.words[i - 2] as string) : '';
      if (TITLE_SET.has(p.endsWith('.') ? p.slice(0, -1) : p) || (p === '.' && TITLE_SET.has(pp))) out[n++] = mix(25, 1);
      if (PLACE_PREFIX_SET.has(p)) out[n++] = mix(27, 1);
      if (GIVEN_NAME_SET.has(p)) out[n++] = mix(28, prevTag);
      if (SURNAME_SET.has(p)) out[n++] = mix(30, prevTag);
    }
    if (nextFrom === -1 && i + 1 < this.words.length) {
      const nw = this.words[i + 1] as string;
      if (PLACE_WORDS.has(nw)) out[n++] = mix(27, 2);
      if (SURNAME_SET.has(nw)) out[n++] = mix(29, 1);
    }
    out[n++] = mix(31, info.shapeHash ^ Math.imul(prevTag + 1, 0x27d4eb2d));
    if (i > from) out[n++] = mix(35, this.info(i - 1).suffixHash);
    if (nextFrom === -1 && i + 1 < this.words.length) out[n++] = mix(36, this.info(i + 1).suffixHash);
    // Clusters of the neighbours (a boundary is its own value), and of the word beside the tag before it.
    const prevFine = i > from ? this.info(i - 1).fine : 0xffff;
    const nextFine = nextFrom === -1 && i + 1 < this.words.length ? this.info(i + 1).fine : 0xffff;
    out[n++] = mix(42, prevFine);
    out[n++] = mix(43, nextFine);
    out[n++] = mix(44, info.fine * 16 + prevTag);
    out[n++] = mix(45, prevFine * 0x10000 + nextFine);
    if (hasWide(this.lexicon.clusters)) {
      // The neighbours' wide clusters and name grades (a given-name cluster before, a surname cluster after).
      const hasPrev = i > from;
      const hasNext = nextFrom === -1 && i + 1 < this.words.length;
      const prevName = hasPrev ? this.info(i - 1).nameGrade : 31;
      const nextName = hasNext ? this.info(i + 1).nameGrade : 31;
      out[n++] = mix(48, (prevName * 32 + info.nameGrade) * 8 + info.capGrade);
      out[n++] = mix(49, (nextName * 32 + info.nameGrade) * 8 + info.capGrade);
      out[n++] = mix(50, info.nameGrade * 16 + prevTag);
      out[n++] = mix(53, (hasPrev ? this.info(i - 1).wide : 0xffff) * 0x10000 + (hasNext ? this.info(i + 1).wide : 0xffff));
      out[n++] = mix(54, info.wide * 16 + prevTag);
    }
    if (info.lists !== 0) {
      // The word's lists at a sentence start or not: a dictionary word opening a sentence is no evidence of a name.
      out[n++] = mix(58, info.lists * 2 + atStart);
    }
    if (this.registers !== null) {
      // The word's evidence crossed with its sentence's register (prose included, so prose keeps weights of its
      // own): software text's lessons about capitalised words land on the software-register copies.
      const r = (this.registers[i] as number) + 1;
      const rh = Math.imul(r, 0x2545f491);
      out[n++] = mix(60, info.shapeHash ^ rh);
      out[n++] = mix(61, lh ^ rh);
      out[n++] = mix(62, (info.common * 8 + Math.min(info.gazetteer, 7)) * 8 + r);
      out[n++] = mix(63, ((info.capGrade * 32 + info.nameGrade) * 8 + r) * 2 + atStart);
      out[n++] = mix(64, prev ^ rh);
      out[n++] = mix(65, (prevTag * 2 + atStart) * 8 + r);
      out[n++] = mix(66, (info.fine * 8 + r) * 2 + info.common);
      out[n++] = mix(67, (info.lists * 8 + r) * 2 + atStart);
    }
    if (this.templates !== 0) n = this.templateFeatures(i, info, from, nextFrom, prevTag, prev, next, out, n);
    return n;
  }

  /**
   * The extra context templates of a model trained with them (NameLexicon.templates); measured on the training-side
   * dev parts over shuffle draws (docs/privacy.md (aa)). Bit 1: the neighbours' name-list, word-list and
   * lower-case-lexicon hits beside the word's own ("Anna" before a known surname, a capitalised common word after);
   * bit 2: word pairs across the word (the words either side together, the word's ending with the next word, each
   * neighbour with the word's shape).
   */
  private templateFeatures(i: number, info: WordInfo, from: number, nextFrom: number, prevTag: number, prev: number, next: number, out: Uint32Array, n: number): number {
    const t = this.templates;
    if ((t & 1) !== 0) {
      const p = i > from ? this.info(i - 1) : undefined;
      const q = nextFrom === -1 && i + 1 < this.words.length ? this.info(i + 1) : undefined;
      const pg = p === undefined ? 15 : p.gazetteer;
      const qg = q === undefined ? 15 : q.gazetteer;
      out[n++] = mix(74, (pg * 16 + info.gazetteer) * 16 + prevTag);
      out[n++] = mix(75, qg * 16 + info.gazetteer);
      out[n++] = mix(76, (p === undefined ? 0xfff : p.lists * 2 + p.common) * 0x1000 + (q === undefined ? 0xfff : q.lists * 2 + q.common));
      out[n++] = mix(77, ((q === undefined ? 3 : q.common * 2 + q.capGrade) * 8 + info.capGrade) * 2 + info.common);
    }
    if ((t & 2) !== 0) {
      out[n++] = mix(78, prev ^ Math.imul(next, 0x27d4eb2d));
      out[n++] = mix(79, info.suffixHash ^ Math.imul(next, 0x165667b1));
      out[n++] = mix(80, prev ^ Math.imul(info.shapeHash, 0x2545f491));
      out[n++] = mix(81, next ^ Math.imul(info.shapeHash, 0x2545f491));
    }
    return n;
  }
}

/** 1: a Polish case ending off, the word is a known surname; 2: a known given name; 0: neither. */
function polishStemKnown(w: string): number {
  for (const end of POLISH_ENDINGS) {
    if (w.length <= end.length + 2 || !w.endsWith(end)) continue;
    const stem = w.slice(0, -end.length);
    for (const add of POLISH_RESTORE) {
      const base = stem + add;
      if (SURNAME_SET.has(base)) return 1;
      if (GIVEN_NAME_SET.has(base)) return 2;
    }
  }
  return 0;
}
