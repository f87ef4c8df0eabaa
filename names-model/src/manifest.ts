import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SilverSampling } from './self-training.js';
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
  /**
   * For a file labelled here from another text (software-text): the SHA-256 of the text it was made from, as
   * read at `commit` (`path` names it, or how it was taken: the commits it shows).
   */
  readonly sourceSha256?: string;
  /** Sentences kept at most (a deterministic subsample), to keep a training run to minutes. */
  readonly maxSentences?: number;
}

/**
 * What a source's licence lets a model trained on it do, and what it asks of whoever ships one. Read from each
 * source's own licence statement (its `licence` text says where); where that is unclear, commercialUse is false
 * and `licenceCheck` says why.
 */
export interface SourceObligations {
  /** The credit a NOTICE beside a model trained on the source must carry; null when the licence asks none (CC0). */
  readonly attribution: string | null;
  /** Whether the licence is share-alike (CC BY-SA, CC BY-NC-SA): adaptations of the data under the same terms. */
  readonly shareAlike: boolean;
}

export interface CorpusSource {
  readonly id: string;
  readonly name: string;
  /** The licence in words, as the source states it (kept for people; `spdx` and `commercialUse` are what code reads). */
  readonly licence: string;
  /** SPDX licence expression (`CC-BY-4.0`, `CC-BY-NC-4.0 AND CC-BY-NC-SA-4.0`), or `LicenseRef-…` where no SPDX id exists. */
  readonly spdx: string;
  /** Whether the licence allows a commercially used model to be trained on it: the commercial profile reads only these. */
  readonly commercialUse: boolean;
  /** Where the licence was read and, when commercial use is refused, why. */
  readonly licenceCheck: string;
  readonly obligations: SourceObligations;
  /**
   * conll-indexed: index, word, …, tag; germeval-tsv: index, word, outer tag, nested tag, '#' lines between;
   * bio-space: word and tag; bio-tab: word, tab, tag, running text (documents, no sentence breaks) cut as
   * bio-space is; social-tab: word, tab, IOB2 tag (CoNLL's types or WNUT 17's), blank lines between posts, a user
   * handle never a name; io-tsv: word, tab, a bare type (PER, LOC, ORG) or O, a run of one type one name;
   * iob2-tsv: index, word, IOB2 tag, then other columns (Universal NER's annotators), '#' lines between;
   * kpwr-space: word, space, KPWr's fine IOB2 tag (B-nam_liv_person, I-nam_loc_gpe_city…), blank lines between;
   * litbank-tsv: word, tab, LitBank's nested BIO layers (PER, GPE, LOC, FAC, ORG, VEH), blank lines between
   * paragraphs; its person mentions narrowed to the names they open with (read-corpus.ts); gum-conllu: GUM's
   * CoNLL-U with its CorefUD mention brackets, the proper nouns of person, place and organisation mentions
   * (read-gum.ts).
   */
  readonly format: 'conll-indexed' | 'germeval-tsv' | 'bio-space' | 'io-tsv' | 'iob2-tsv' | 'kpwr-space' | 'litbank-tsv' | 'bio-tab' | 'social-tab' | 'gum-conllu';
  /** Labels derived automatically (Wikipedia links), not by people reading the text. */
  readonly silver?: boolean;
  /** Labelled by people, but on OCR'd text (old print, misread letters): reported apart from clean hand-labelled text. */
  readonly ocr?: boolean;
  /** Labelled by people, on social-media posts (tweets, comments): reported apart from edited prose. */
  readonly social?: boolean;
  /**
   * Software text (READMEs, documentation, commits) labelled here: few names, there to teach what is none; the
   * real-text report keeps its rows apart from prose.
   */
  readonly software?: boolean;
  /**
   * false: measured and left out of every default build (no profile trains or tunes on it; the real-text report
   * still scores its held-out part); `usedDecision` says what was measured. A build reads it again only when named
   * (`train:names -- --with <id> --out <file>`, never the shipped model). Absent: used.
   */
  readonly used?: boolean;
  readonly usedDecision?: string;
  /**
   * Labels made here by a model from unlabelled text (self-training.ts, `npm run build:self`): which model, on
   * what profile and sources, from which unlabelled sources and how sampled. The lineage test holds it to a
   * commercial model trained on commercial sources alone.
   */
  readonly labelledBy?: SilverLabeller;
  /**
   * Partial labels (iob2-tsv only): a sentence's '#' line lists its trusted words (`trusted=3,7`, the first
   * column's indexes: the mentions only the novel-wide reading found), and of the labeller's own labels only the
   * kinds in `trustOwn` (O, PER, LOC, ORG, MISC) are trusted; every other word's label is unknown. The trainer
   * learns from trusted words alone, trains on no sentence without one and tunes on none (train-names.ts
   * loadSplits); the held-out part still reports against every label.
   */
  readonly partial?: PartialLabels;
  /** Repairs a file written as Latin-1 but read as Windows-1251 somewhere upstream ("Erzдhlung"). */
  readonly repair?: 'latin1-read-as-cp1251';
  readonly files: readonly CorpusFile[];
}

/** Which labels of a partial-label source are trusted besides the words its '#' lines list (CorpusSource.partial). */
export interface PartialLabels {
  readonly trustOwn: readonly ('O' | 'PER' | 'LOC' | 'ORG' | 'MISC')[];
}

/** The model that labelled a silver source and how its sentences were picked (CorpusSource.labelledBy). */
export interface SilverLabeller {
  /** The model file, relative to the repository root, as it was when it labelled (build:self --labeller for a copy). */
  readonly model: string;
  readonly sha256: string;
  /** The profile it was trained with: commercial (a research model's labels never enter the commercial profile). */
  readonly profile: TrainingProfile;
  /** The labelled sources it was trained on (ids of this manifest). */
  readonly sources: readonly string[];
  /** The unlabelled sources of its word clusters and word lists. */
  readonly clusterSources: readonly string[];
  /** Per language, the unlabelled source (names-model/clusters/sources.json) whose files are labelled. */
  readonly novels: Readonly<Record<string, string>>;
  readonly sampling: SilverSampling;
  readonly command: string;
}

/**
 * commercial: only sources whose licence allows commercial use, for everything a model learns or is tuned from
 * (labels, word clusters, lexicons, the dev part that picks the epoch count); research: every source.
 */
export type TrainingProfile = 'commercial' | 'research';
export const TRAINING_PROFILES: readonly TrainingProfile[] = ['commercial', 'research'];
/**
 * The profile of the model the repository ships and the proxy loads by default: one every customer may run. A
 * research model is built on request into names-model/out/ and run only where an operator names it (NAMES_MODEL).
 */
export const SHIPPED_PROFILE: TrainingProfile = 'commercial';

export interface DataManifest {
  readonly seed: number;
  readonly buckets: number;
  readonly maxEpochs: number;
  /** Models trained on train + dev with successive shuffle seeds and averaged into the shipped one (default 1). */
  readonly members?: number;
  /** Word-cluster settings (word-clusters.ts) for clusters learnt from the train part; defaults for any left out. */
  readonly clusters?: Partial<Omit<ClusterOptions, 'seed'>>;
  /**
   * The word clusters learnt from large unlabelled text (cluster-manifest.ts), relative to this manifest's
   * directory: when set, every build uses those committed clusters instead of clustering the train part's text.
   */
  readonly unlabelledClusters?: string;
  /** The word lists read as features (lexicon-manifest.ts), relative to this manifest's directory, when any. */
  readonly lexicons?: string;
  /** Whether the model crosses word features with the sentence's register (privacy text-register.ts). */
  readonly registerFeatures?: boolean;
  /** Bits of the extra context templates the model is trained with (privacy name-features.ts); unset or 0: none, as before. */
  readonly templates?: number;
  /** Whether training guesses as the proxy decodes and learns O where the gold I-X has become impossible (perceptron.ts). */
  readonly constrainedTraining?: boolean;
  /**
   * The seed of the training order alone (each epoch's shuffle, each member's), when set; the split and the
   * clusters keep `seed`. So a change can be judged over several shuffles on the same held-out rows: the swing
   * of a retrain, not a new split (docs/privacy.md (v)). Unset: `seed`, as before.
   */
  readonly shuffleSeed?: number;
  readonly sources: readonly CorpusSource[];
  /**
   * The detector's margins (privacy detector-margins.ts) and the data they were tuned on: the commercial
   * profile's dev parts alone (tune-main.js --tune-margins). A test checks they are the margins the detector runs with.
   */
  readonly margins?: {
    readonly profile: TrainingProfile;
    readonly tunedOn: string;
    readonly command: string;
    readonly decision: string;
    readonly values: Readonly<Record<string, number>>;
  };
  /** The model the repository ships, as the last default `train:names` run (the commercial profile) wrote it. */
  readonly model: {
    /** Relative to the repository root. */
    readonly file: string;
    /** The profile it was trained with: always SHIPPED_PROFILE (readManifest refuses any other). */
    readonly profile: TrainingProfile;
    readonly sha256: string;
    readonly sources: readonly string[];
    /** The unlabelled sources of its word clusters (names-model/clusters/sources.json), when it has them. */
    readonly clusterSources?: readonly string[];
    /** The sources of its word lists (names-model/lexicons/sources.json), when it has them. */
    readonly lexiconSources?: readonly string[];
  };
}

/** Reads a manifest; throws naming every source whose licence terms are missing or malformed. */
export function readManifest(file: string): DataManifest {
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as DataManifest;
  const problems = manifest.sources.flatMap((s) => termProblems(s).map((p) => `${s.id}: ${p}`));
  if (manifest.model.profile !== SHIPPED_PROFILE) {
    problems.push(`model.profile must be ${SHIPPED_PROFILE}, not ${String(manifest.model.profile)}: the repository ships only a model every customer may run`);
  }
  if (problems.length > 0) throw new Error(`${file}: licence terms incomplete:\n  - ${problems.join('\n  - ')}`);
  return manifest;
}

// An SPDX expression: ids (or LicenseRef-…) joined by AND / OR, as the manifest writes them (no parentheses).
const SPDX_EXPRESSION = /^(?:LicenseRef-[A-Za-z0-9.-]+|[A-Za-z0-9][A-Za-z0-9.+-]*)(?: (?:AND|OR) (?:LicenseRef-[A-Za-z0-9.-]+|[A-Za-z0-9][A-Za-z0-9.+-]*))*$/;

/** What is missing or malformed in a source's licence terms (a source without them would slip past the profiles). */
export function termProblems(source: CorpusSource): string[] {
  const problems: string[] = [];
  if (typeof source.licence !== 'string' || source.licence.trim().length < 10) problems.push('licence text missing');
  if (typeof source.spdx !== 'string' || !SPDX_EXPRESSION.test(source.spdx)) problems.push(`spdx is not an SPDX expression: ${String(source.spdx)}`);
  if (typeof source.commercialUse !== 'boolean') problems.push('commercialUse must be true or false');
  if (typeof source.licenceCheck !== 'string' || source.licenceCheck.trim() === '') problems.push('licenceCheck missing');
  const o = source.obligations as SourceObligations | undefined;
  if (o === undefined || typeof o.shareAlike !== 'boolean' || !(o.attribution === null || typeof o.attribution === 'string')) {
    problems.push('obligations must give attribution (text or null) and shareAlike (true or false)');
  }
  return problems;
}

/**
 * What bars a source of an input every model reads (word clusters, word lists; `what` names it in the message):
 * incomplete licence terms, or a licence that refuses commercial use, since the commercial model reads it too.
 */
export function everyModelInputProblems(source: Omit<CorpusSource, 'files' | 'format'>, what: string): string[] {
  const problems = termProblems({ ...source, format: 'bio-space', files: [] }).map((p) => `${source.id}: ${p}`);
  if (!source.commercialUse) problems.push(`${source.id}: refuses commercial use; ${what} may use only sources that allow it`);
  return problems;
}

/**
 * The sources a profile may read, before any is switched off: commercial, only those allowing commercial use;
 * never one the manifest marks `used: false`.
 */
export function profileSources(manifest: DataManifest, profile: TrainingProfile): CorpusSource[] {
  return manifest.sources.filter((s) => s.used !== false && (profile === 'research' || s.commercialUse));
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
