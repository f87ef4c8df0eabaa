import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { addToLexicon, LEXICON_BITS, NameFeatureContext, TAG_COUNT, type NameLexicon } from '@gateway/privacy/internals';
import type { NameModel } from '@gateway/privacy';
import { encodeNameModel, sha256Hex } from '@gateway/privacy/internals';
import { quantisedScorer, tagWords, type TagScorer } from '@gateway/privacy/internals';
import { loadMergedClusters, readClusterManifest, type UnlabelledSource } from './cluster-manifest.js';
import { combineClusters } from './cluster-merge.js';
import { loadLexiconSets, readLexiconManifest, type LexiconSource } from './lexicon-manifest.js';
import { termsLine } from './licence-terms.js';
import { locateCorpusFiles, profileSources, type CorpusFile, type CorpusSource, type DataManifest, type TrainingProfile } from './manifest.js';
import { AveragedPerceptron, quantisedModel, seededRandom, shuffledOrder } from './perceptron.js';
import { parseCorpus, type LabelledSentence } from './read-corpus.js';
import { addScore, emptyScore, f1, precision, recall, tagSpans, type NameScore } from './score-names.js';
import { inSubsample, splitOf } from './split.js';
import { DEFAULT_CLUSTER_OPTIONS, trainWordClusters } from './word-clusters.js';

/** Held-out sentences of one source and language: the real-text report's unit. */
export interface HeldOutSet {
  readonly source: string;
  readonly language: string;
  readonly sentences: LabelledSentence[];
}

/** A corpus file a run read, with the source it belongs to: the lineage a model's note records. */
export interface FileRead {
  readonly source: string;
  readonly file: CorpusFile;
}

export interface CorpusSplits {
  readonly train: LabelledSentence[];
  readonly dev: LabelledSentence[];
  readonly heldout: HeldOutSet[];
  /** Every file read to make these parts: all a model trained on them can have learned or been tuned from. */
  readonly read: readonly FileRead[];
}

/**
 * The sources a run trains on: the profile's (commercial: only sources whose licence allows commercial use),
 * less those switched off by id, plus sources the manifest leaves out (`used: false`) named in `add` to measure
 * them again. Everything the run learns or tunes from (labels, word clusters, lexicon, the dev part) comes from
 * these sources' files alone.
 */
export function chosenSources(manifest: DataManifest, profile: TrainingProfile, without: readonly string[] = [], add: readonly string[] = []): CorpusSource[] {
  const unknown = without.filter((id) => !manifest.sources.some((s) => s.id === id));
  if (unknown.length > 0) throw new Error(`unknown source(s) to leave out: ${unknown.join(', ')}`);
  const notUnused = add.filter((id) => manifest.sources.find((s) => s.id === id)?.used !== false);
  if (notUnused.length > 0) throw new Error(`not a source the manifest leaves out (used: false): ${notUnused.join(', ')}`);
  const named = manifest.sources.filter((s) => add.includes(s.id) && (profile === 'research' || s.commercialUse));
  const barred = add.filter((id) => !named.some((s) => s.id === id));
  if (barred.length > 0) throw new Error(`not allowed in the ${profile} profile (no commercial use): ${barred.join(', ')}`);
  // A source kept for the real-text report alone has nothing to train on or tune with.
  return [...profileSources(manifest, profile), ...named].filter((s) => !without.includes(s.id) && s.files.some((f) => f.role !== 'report'));
}

/** Reads, checks and splits every file of `sources` (see split.ts for which sentence goes where). */
export function loadSplits(seed: number, sources: readonly CorpusSource[], dirs: readonly string[]): CorpusSplits {
  const files = locateCorpusFiles(sources, dirs);
  const train: LabelledSentence[] = [];
  const dev: LabelledSentence[] = [];
  const heldout = new Map<string, HeldOutSet>();
  const read: FileRead[] = [];
  for (const source of sources) {
    for (const file of source.files) {
      read.push({ source: source.id, file });
      const sentences = parseCorpus(source, readFileSync(files.get(file) as string, 'utf8'));
      sentences.forEach((s, i) => {
        if (!inSubsample(seed, file, i, sentences.length)) return;
        const part = splitOf(seed, file, i);
        // Partial labels: a sentence with no trusted word teaches nothing, and the dev part that picks the epoch
        // count is scored against every label, which here are mostly the labeller's own guesses.
        if (source.partial !== undefined && (part === 'dev' || (part === 'train' && s.trusted?.includes(1) !== true))) return;
        if (part === 'train') train.push(s);
        else if (part === 'dev') dev.push(s);
        else {
          const key = `${source.id}/${file.language}`;
          let set = heldout.get(key);
          if (set === undefined) heldout.set(key, (set = { source: source.id, language: file.language, sentences: [] }));
          set.sentences.push(s);
        }
      });
    }
  }
  return { train, dev, heldout: [...heldout.values()], read };
}

/** PERSON spans of the tagger alone against gold, sentence by sentence. */
export function scoreTagger(scorer: TagScorer, sentences: readonly LabelledSentence[]): NameScore {
  const score = emptyScore();
  for (const s of sentences) {
    const start = new Uint8Array(s.words.length);
    start[0] = 1;
    const predicted = tagWords(scorer, new NameFeatureContext(s.words, start, scorer.lexicon));
    addScore(score, tagSpans(s.tags, 0), [...tagSpans(s.tags, 1), ...tagSpans(s.tags, 2)], tagSpans(predicted, 0));
  }
  return score;
}

/** The word clusters' origin when they come from unlabelled text: its sources and the committed cluster files. */
export interface ClusterLineage {
  readonly sources: readonly UnlabelledSource[];
  /** Each cluster file read, relative to the cluster manifest, with its SHA-256. */
  readonly files: readonly { readonly file: string; readonly sha256: string }[];
}

/**
 * What the features look up beside the lists: common words and word clusters from the train part, and, when the
 * manifest names them (`manifestDir`: the manifest's directory), the wide clusters committed from large unlabelled
 * text, joined under one table.
 */
export function buildLexicon(
  manifest: DataManifest,
  sentences: readonly LabelledSentence[],
  manifestDir?: string,
): { lexicon: NameLexicon; clusterLineage: ClusterLineage | null; lexiconLineage: LexiconLineage | null } {
  const clustered = buildClusteredLexicon(manifest, sentences, manifestDir);
  const clusterLineage = clustered.clusterLineage;
  const registered: NameLexicon = manifest.registerFeatures === true ? { ...clustered.lexicon, register: true } : clustered.lexicon;
  const templates = manifest.templates ?? 0;
  const lexicon: NameLexicon = templates !== 0 ? { ...registered, templates } : registered;
  if (manifest.lexicons === undefined) return { lexicon, clusterLineage, lexiconLineage: null };
  if (manifestDir === undefined) throw new Error('the manifest names word lists: the manifest directory is needed to find them');
  const file = join(manifestDir, manifest.lexicons);
  const lexiconManifest = readLexiconManifest(file);
  const { sets, files } = loadLexiconSets(lexiconManifest, dirname(file));
  const used = new Set(lexiconManifest.order.flatMap((id) => lexiconManifest.lexicons[id]?.sources ?? []));
  const sources = lexiconManifest.sources.filter((s) => used.has(s.id));
  return { lexicon: { ...lexicon, sets }, clusterLineage, lexiconLineage: { sources, files } };
}

/** The word lists' origin: their sources and the committed list files (names-model/lexicons/). */
export interface LexiconLineage {
  readonly sources: readonly LexiconSource[];
  readonly files: readonly { readonly file: string; readonly sha256: string }[];
}

function buildClusteredLexicon(manifest: DataManifest, sentences: readonly LabelledSentence[], manifestDir?: string): { lexicon: NameLexicon; clusterLineage: ClusterLineage | null } {
  const common = commonWords(sentences);
  const options = { ...DEFAULT_CLUSTER_OPTIONS, ...manifest.clusters, seed: manifest.seed };
  const own = trainWordClusters(sentences.map((s) => s.words), options);
  if (manifest.unlabelledClusters === undefined) return { lexicon: { common, clusters: own }, clusterLineage: null };
  if (manifestDir === undefined) throw new Error('the manifest names unlabelled word clusters: the manifest directory is needed to find them');
  const file = join(manifestDir, manifest.unlabelledClusters);
  const clusterManifest = readClusterManifest(file);
  const { clusters: wide, files } = loadMergedClusters(clusterManifest, dirname(file));
  const sources = clusterManifest.sources.filter((s) => clusterManifest.languages.includes(s.language));
  const sums = files.map((f) => ({ file: f, sha256: Object.values(clusterManifest.clusters).find((c) => c.file === f)?.sha256 ?? '' }));
  return { lexicon: { common, clusters: combineClusters(own, wide) }, clusterLineage: { sources, files: sums } };
}

/** Lower-case words the train part writes mid sentence at least three times: the lower-case lexicon. */
function commonWords(sentences: readonly LabelledSentence[]): Uint32Array {
  const counts = new Map<string, number>();
  for (const s of sentences) {
    for (let i = 1; i < s.words.length; i++) {
      const w = s.words[i] as string;
      if (w.length < 2 || w !== w.toLowerCase() || w === w.toUpperCase()) continue;
      counts.set(w, (counts.get(w) ?? 0) + 1);
    }
  }
  const bits = new Uint32Array(LEXICON_BITS / 32);
  for (const [w, n] of counts) if (n >= 3) addToLexicon(bits, w);
  return bits;
}

export interface TrainResult {
  readonly model: NameModel;
  readonly bytes: Buffer;
  readonly sha256: string;
  readonly profile: TrainingProfile;
  /** Ids of the sources trained on, in manifest order. */
  readonly sources: readonly string[];
  /** The labelled sources themselves, with their licences and obligations (for the NOTICE; the unlabelled ones are clusterLineage's). */
  readonly sourceTerms: readonly CorpusSource[];
  /** Where the word clusters came from when not from the train part. */
  readonly clusterLineage: ClusterLineage | null;
  /** Where the word lists came from, when the manifest names them. */
  readonly lexiconLineage: LexiconLineage | null;
  /** The model's terms in a line, as its header states them. */
  readonly terms: string;
  readonly epochs: number;
  readonly dev: NameScore;
  readonly splits: CorpusSplits;
}

export interface TrainOptions {
  readonly manifest: DataManifest;
  readonly corporaDirs: readonly string[];
  readonly profile: TrainingProfile;
  readonly without?: readonly string[];
  /** Sources the manifest leaves out (`used: false`) to read besides the profile's, to measure them again. */
  readonly with?: readonly string[];
  /** The manifest's directory: where its `unlabelledClusters` lies. */
  readonly manifestDir?: string;
  readonly log?: (line: string) => void;
}

function describe(s: NameScore): string {
  return `P ${precision(s).toFixed(3)} R ${recall(s).toFixed(3)} F1 ${f1(s).toFixed(3)}`;
}

/**
 * Trains the tagger: shuffled by the manifest's seed each epoch, scored on the dev part after each, the epoch
 * count with the best dev PERSON F1 chosen (stopping two epochs after the last gain), then the model retrained
 * on train and dev for that many epochs (the mean of `members` such runs). Same manifest, same data, same bytes out.
 */
export function trainNames(options: TrainOptions): TrainResult {
  const log = options.log ?? (() => undefined);
  const { manifest } = options;
  const sources = chosenSources(manifest, options.profile, options.without ?? [], options.with ?? []);
  const splits = loadSplits(manifest.seed, sources, options.corporaDirs);
  const { lexicon, clusterLineage, lexiconLineage } = buildLexicon(manifest, splits.train, options.manifestDir);
  const terms = termsLine(options.profile, [...sources, ...(clusterLineage?.sources ?? []), ...(lexiconLineage?.sources ?? [])]);
  log(`profile ${options.profile}, sources: ${sources.map((s) => s.id).join(', ')}`);
  if (clusterLineage !== null) log(`word clusters: ${clusterLineage.files.map((f) => f.file).join(', ')} (${clusterLineage.sources.map((s) => s.id).join(', ')})`);
  if (lexiconLineage !== null) log(`word lists: ${lexiconLineage.files.map((f) => f.file).join(', ')} (${lexiconLineage.sources.map((s) => s.id).join(', ')})`);
  log(`terms: ${terms}`);
  log(`sentences: train ${splits.train.length}, dev ${splits.dev.length}, held out ${splits.heldout.reduce((n, h) => n + h.sentences.length, 0)}`);
  const shuffleSeed = manifest.shuffleSeed ?? manifest.seed;
  const random = seededRandom(shuffleSeed);
  const perceptron = new AveragedPerceptron(manifest.buckets, lexicon, manifest.constrainedTraining === true);
  // The header states what the model may be used for: the proxy logs profile and terms at start.
  const info = {
    profile: options.profile,
    terms,
    sources: sources.map((s) => s.id),
    ...(clusterLineage === null ? {} : { clusterSources: clusterLineage.sources.map((s) => s.id) }),
    ...(lexiconLineage === null ? {} : { lexiconSources: lexiconLineage.sources.map((s) => s.id) }),
    seed: manifest.seed,
    ...(manifest.shuffleSeed === undefined ? {} : { shuffleSeed: manifest.shuffleSeed }),
  };
  let best: { model: NameModel; dev: NameScore; epoch: number } | undefined;
  for (let epoch = 1; epoch <= manifest.maxEpochs; epoch++) {
    const t0 = Date.now();
    const errors = perceptron.trainEpoch(splits.train, shuffledOrder(splits.train.length, random));
    const model = perceptron.averagedModel({ ...info, epochs: epoch });
    const dev = scoreTagger(quantisedScorer(model), splits.dev);
    log(`epoch ${epoch}: ${errors} errors, dev PERSON ${describe(dev)} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    if (best === undefined || f1(dev) > f1(best.dev)) best = { model, dev, epoch };
    else if (epoch - best.epoch >= 2) break;
  }
  if (best === undefined) throw new Error('maxEpochs must be at least 1');
  // The epoch count chosen, the shipped model learns from the train and dev parts together (never the held-out
  // part), from scratch: `members` times, each shuffled by its own seed (the manifest's, then the next ones), and
  // their weights averaged. Scores are linear in the weights, so the average scores as the mean of the members:
  // one table, no cost at run time, and less of the swing a single shuffle gives names no list holds.
  const all = [...splits.train, ...splits.dev];
  const members = manifest.members ?? 1;
  const sum = new Float32Array(manifest.buckets * TAG_COUNT);
  for (let k = 0; k < members; k++) {
    const member = new AveragedPerceptron(manifest.buckets, lexicon, manifest.constrainedTraining === true);
    const memberRandom = seededRandom(shuffleSeed + k);
    for (let epoch = 1; epoch <= best.epoch; epoch++) member.trainEpoch(all, shuffledOrder(all.length, memberRandom));
    const w = member.averagedWeights();
    for (let i = 0; i < w.length; i++) sum[i] = (sum[i] as number) + (w[i] as number) / members;
    log(`final: member ${k + 1} of ${members}, ${best.epoch} epochs over train and dev (${all.length} sentences)`);
  }
  const model = quantisedModel(manifest.buckets, sum, lexicon, { ...info, epochs: best.epoch, members, trainedOn: 'train+dev' });
  const bytes = encodeNameModel(model);
  return {
    model,
    bytes,
    sha256: sha256Hex(bytes),
    profile: options.profile,
    sources: info.sources,
    sourceTerms: sources,
    clusterLineage,
    lexiconLineage,
    terms,
    epochs: best.epoch,
    dev: best.dev,
    splits,
  };
}
