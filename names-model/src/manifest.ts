import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ClusterOptions } from './word-clusters.js';

/** One corpus file the pipeline reads: where it came from, under what licence, and its bytes' SHA-256. */
export interface CorpusFile {
  /** Path under the corpora directory: `<owner>/<repo>/<path in repo>`. */
  readonly local: string;
  readonly repository: string;
  readonly path: string;
  readonly commit: string;
  /**
   * train: our own held-out part and dev part are carved from it; dev: a published dev split, for tuning only;
   * report: a published dev split read only by the real-text report, whole (never trained or tuned on).
   */
  readonly role: 'train' | 'dev' | 'report';
  readonly language: string;
  readonly sha256: string;
  /** Sentences kept at most (a deterministic subsample), to keep a training run to minutes. */
  readonly maxSentences?: number;
}

export interface CorpusSource {
  readonly id: string;
  readonly name: string;
  readonly licence: string;
  /** permissive: may train a commercially shipped model; research: research or non-commercial use only. */
  readonly licenceClass: 'permissive' | 'research';
  /**
   * conll-indexed: index, word, …, tag; germeval-tsv: index, word, outer tag, nested tag, '#' lines between;
   * bio-space: word and tag; io-tsv: word, tab, a bare type (PER, LOC, ORG) or O, a run of one type one name;
   * iob2-tsv: index, word, IOB2 tag, then other columns (Universal NER's annotators), '#' lines between.
   */
  readonly format: 'conll-indexed' | 'germeval-tsv' | 'bio-space' | 'io-tsv' | 'iob2-tsv';
  /** Labels derived automatically (Wikipedia links), not by people reading the text. */
  readonly silver?: boolean;
  /** Repairs a file written as Latin-1 but read as Windows-1251 somewhere upstream ("Erzдhlung"). */
  readonly repair?: 'latin1-read-as-cp1251';
  readonly files: readonly CorpusFile[];
}

export interface DataManifest {
  readonly seed: number;
  readonly buckets: number;
  readonly maxEpochs: number;
  /** Models trained on train + dev with successive shuffle seeds and averaged into the shipped one (default 1). */
  readonly members?: number;
  /** Word-cluster settings (word-clusters.ts); defaults for any left out. */
  readonly clusters?: Partial<Omit<ClusterOptions, 'seed'>>;
  readonly sources: readonly CorpusSource[];
  readonly model: {
    /** Relative to the repository root. */
    readonly file: string;
    readonly sha256: string;
    readonly sources: readonly string[];
  };
}

export function readManifest(file: string): DataManifest {
  return JSON.parse(readFileSync(file, 'utf8')) as DataManifest;
}

export function sha256OfFile(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/**
 * Every file of the chosen sources, read from `dirs` (the first that holds it) and checked against the
 * manifest's SHA-256. Throws naming every missing or changed file.
 */
export function locateCorpusFiles(sources: readonly CorpusSource[], dirs: readonly string[]): Map<CorpusFile, string> {
  const found = new Map<CorpusFile, string>();
  const problems: string[] = [];
  for (const source of sources) {
    for (const file of source.files) {
      let located: string | undefined;
      for (const dir of dirs) {
        const candidate = join(dir, file.local);
        try {
          const sum = sha256OfFile(candidate);
          if (sum !== file.sha256) {
            problems.push(`${file.local}: SHA-256 ${sum} but the manifest says ${file.sha256}`);
            located = '';
          } else located = candidate;
          break;
        } catch {
          // not in this directory; try the next
        }
      }
      if (located === undefined) problems.push(`${file.local}: not found in ${dirs.join(', ')}`);
      else if (located !== '') found.set(file, located);
    }
  }
  if (problems.length > 0) throw new Error(`corpus files do not match the manifest:\n  - ${problems.join('\n  - ')}`);
  return found;
}
