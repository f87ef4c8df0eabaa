import { readFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { emptyLexiconSet, type LexiconSet } from '@gateway/privacy/internals';
import { countsNames } from './lexicon-words.js';
import { everyModelInputProblems, sha256OfFile, type CorpusSource } from './manifest.js';

/**
 * names-model/lexicons/sources.json: the word lists the tagger reads as features (`npm run build:lexicons`), each
 * source with its licence, package or repository, version and the SHA-256 of every file read, and the list files
 * built from them with theirs. Training reads the committed list files only (checked against these sums), so a
 * fresh clone retrains without fetching; only sources allowing commercial use may be named.
 */
export interface LexiconSourceFile {
  /** Where the build reads it, under its lexicon directory (--from). */
  readonly local: string;
  readonly sha256: string;
  /** How it was obtained, e.g. "apt-get download wpolish=20220301-1; dpkg-deb -x: usr/share/dict/polish". */
  readonly origin: string;
}

export interface LexiconSource extends Omit<CorpusSource, 'files' | 'format'> {
  /** Debian package, GitHub repository… */
  readonly origin: string;
  readonly version: string;
  /**
   * How words are read from the files (lexicon-words.ts). The name-statistics readers (`ssa-names`,
   * `berlin-first-names`, `census-surnames`) also read each name's count, so that a list may take a frequency band;
   * so does `geonames-cities`, a city's population as the count of each of its names. `cldr-territories` reads a
   * locale's country and region names (place-words.ts).
   */
  readonly reader: 'debian-packages' | 'linguist-languages' | 'word-list' | 'ssa-names' | 'berlin-first-names' | 'census-surnames' | 'geonames-cities' | 'cldr-territories';
  readonly files: readonly LexiconSourceFile[];
}

export interface BuiltLexicon {
  /** Relative to the lexicon manifest's directory. */
  readonly file: string;
  readonly sha256: string;
  readonly bytes: number;
  readonly words: number;
  readonly bitsLog2: number;
  readonly probes: number;
  /** Which words of its sources: lower ("a dictionary writes it in lower case"), capitalised, or all. */
  readonly take: 'all' | 'lower' | 'capitalised';
  readonly sources: readonly string[];
  /**
   * A frequency band of name statistics: each source's names ranked by their count summed over its files (most
   * frequent first, ties by spelling), ranks `from` (0-based) up to `below` (null: to the end). Absent: every word.
   */
  readonly rank?: { readonly from: number; readonly below: number | null };
  /**
   * Declined forms (polish-place-forms.ts): the capitalised words of the source `forms` (a dictionary of inflected
   * forms, one of `sources`) that decline a name of the other sources (the bases; a base that is a known given name
   * or surname is not declined). Absent: the sources' words themselves.
   */
  readonly declined?: { readonly language: 'pl'; readonly forms: string };
  /** The share of its filter's bits set, and so the chance a word not in it is taken for one (false positive). */
  readonly fill: number;
  readonly falsePositive: number;
}

export interface LexiconManifest {
  readonly sources: readonly LexiconSource[];
  /** The lists in the order they become bits of a word's mask (at most MAX_LEXICON_SETS). */
  readonly order: readonly string[];
  readonly lexicons: Readonly<Record<string, BuiltLexicon>>;
}

export function readLexiconManifest(file: string): LexiconManifest {
  const m = JSON.parse(readFileSync(file, 'utf8')) as LexiconManifest;
  const problems: string[] = [];
  for (const s of m.sources) {
    problems.push(...everyModelInputProblems(s, 'word lists'));
  }
  for (const id of m.order) {
    const built = m.lexicons[id];
    if (built === undefined) problems.push(`${id}: not built`);
    else {
      for (const s of built.sources) {
        const source = m.sources.find((x) => x.id === s);
        if (source === undefined) problems.push(`${id}: source ${s} not listed`);
        // A frequency band needs counts: a plain word list has no ranks to cut.
        else if (built.rank !== undefined && !countsNames(source)) problems.push(`${id}: a rank band of ${s}, whose reader (${source.reader}) gives no counts`);
      }
      if (built.declined !== undefined && !built.sources.includes(built.declined.forms)) problems.push(`${id}: its forms come from ${built.declined.forms}, which is not one of its sources`);
      if (built.declined !== undefined && built.rank !== undefined) problems.push(`${id}: declined forms take no rank band`);
    }
  }
  if (problems.length > 0) throw new Error(`${file}:\n  - ${problems.join('\n  - ')}`);
  return m;
}

const MAGIC = 'LEX1\n';

/** One committed list: "LEX1\n", a JSON header line (id, size, probes, words), then its filter's bits gzipped. */
export function encodeLexiconSet(set: LexiconSet, words: number): Buffer {
  const header = JSON.stringify({ id: set.id, bitsLog2: set.bitsLog2, probes: set.probes, words });
  const bits = Buffer.from(set.bits.buffer, set.bits.byteOffset, set.bits.byteLength);
  return Buffer.concat([Buffer.from(`${MAGIC}${header}\n`, 'utf8'), gzipSync(bits, { level: 9 })]);
}

export function decodeLexiconSet(bytes: Buffer): LexiconSet {
  if (bytes.subarray(0, MAGIC.length).toString('latin1') !== MAGIC) throw new Error('not a word-list file (bad magic)');
  const eol = bytes.indexOf(0x0a, MAGIC.length);
  const header = JSON.parse(bytes.subarray(MAGIC.length, eol).toString('utf8')) as { id: string; bitsLog2: number; probes: number };
  const set = emptyLexiconSet(header.id, header.bitsLog2, header.probes);
  const bits = gunzipSync(bytes.subarray(eol + 1));
  if (bits.byteLength !== set.bits.byteLength) throw new Error(`${header.id}: filter has the wrong size`);
  set.bits.set(new Uint32Array(bits.buffer, bits.byteOffset, bits.byteLength / 4));
  return set;
}

/** The committed lists in mask order, each checked against the manifest's SHA-256. */
export function loadLexiconSets(manifest: LexiconManifest, root: string): { sets: LexiconSet[]; files: { file: string; sha256: string }[] } {
  const sets: LexiconSet[] = [];
  const files: { file: string; sha256: string }[] = [];
  for (const id of manifest.order) {
    const built = manifest.lexicons[id] as BuiltLexicon;
    const path = `${root}/${built.file}`;
    const sum = sha256OfFile(path);
    if (sum !== built.sha256) throw new Error(`${built.file}: SHA-256 ${sum} but names-model/lexicons/sources.json says ${built.sha256}`);
    sets.push(decodeLexiconSet(readFileSync(path)));
    files.push({ file: built.file, sha256: sum });
  }
  return { sets, files };
}
