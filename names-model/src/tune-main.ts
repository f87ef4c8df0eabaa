#!/usr/bin/env node
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { detect } from '@gateway/privacy';
import { useNameModel, type NameModel } from '@gateway/privacy';
import { decodeNameModel, encodeNameModel } from '@gateway/privacy/internals';
import { quantisedScorer } from '@gateway/privacy/internals';
import { profileSources, readManifest, TRAINING_PROFILES, type TrainingProfile } from './manifest.js';
import { AveragedPerceptron, seededRandom, shuffledOrder } from './perceptron.js';
import type { LabelledSentence } from './read-corpus.js';
import { addScore, emptyScore, f1, mergeScores, precision, recall, sentenceText, tagSpans, type NameScore, type Span } from './score-names.js';
import { devDocuments, scoreDocuments } from './document-eval.js';
import { buildLexicon, chosenSources, loadSplits, scoreTagger } from './train-names.js';

// node names-model/dist/src/tune-main.js [--profile=commercial|research] [--without=<source id>,…] [--clusters=<JSON>] [--epochs=<n>] [--buckets=<n>] [--save=<file>] [--load=<file>] [--errors=<lang> --errors-file=<file>]
// The tuning loop, on dev data only: trains a model on the train part alone (never dev, never the held-out
// part), or loads one saved by an earlier run, then scores the tagger alone and the whole detector on each
// source's dev part per language. What the detector's rules and the training choices were tuned with. The profile
// (commercial by default) bounds both: a commercial model is neither trained nor tuned on a research source.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const arg = (name: string): string | undefined => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const clusterOverride = arg('clusters');
const shipped = readManifest(join(ROOT, 'names-model/manifest.json'));
// --clusters overrides the manifest's cluster settings one by one.
const manifest = clusterOverride === undefined ? shipped : { ...shipped, clusters: { ...shipped.clusters, ...(JSON.parse(clusterOverride) as object) } };
const profile = (arg('profile') ?? 'commercial') as TrainingProfile;
if (!TRAINING_PROFILES.includes(profile)) throw new Error(`--profile must be one of ${TRAINING_PROFILES.join(', ')}`);
const dirs = [process.env.NAMES_CORPORA_DIR, join(ROOT, 'names-model/corpora')].filter((d): d is string => d !== undefined && d !== '');
const log = (line: string): void => void process.stdout.write(`${line}\n`);
/** Dev sentences scored through the whole detector per source and language, at most (every k-th kept). */
const DETECTOR_CAP = 1500;

interface DevSet {
  readonly label: string;
  readonly language: string;
  readonly sentences: LabelledSentence[];
}

function devSets(): DevSet[] {
  const out: DevSet[] = [];
  for (const source of profileSources(manifest, profile)) {
    for (const language of [...new Set(source.files.map((f) => f.language))]) {
      const one = { ...source, files: source.files.filter((f) => f.language === language) };
      const dev = loadSplits(manifest.seed, [one], dirs).dev;
      if (dev.length === 0) continue; // kept for the real-text report alone
      const step = Math.max(1, Math.ceil(dev.length / DETECTOR_CAP));
      out.push({ label: `${language} ${source.id}`, language, sentences: dev.filter((_, i) => i % step === 0) });
    }
  }
  return out;
}

function trainOnly(epochs: number): NameModel {
  // Dev is scored on every source of the profile; --without leaves sources out of training only.
  const without = arg('without')?.split(',') ?? [];
  const splits = loadSplits(manifest.seed, chosenSources(manifest, profile, without), dirs);
  log(`train ${splits.train.length}, dev ${splits.dev.length} sentences`);
  const { lexicon } = buildLexicon(manifest, splits.train, join(ROOT, 'names-model'));
  const buckets = Number(arg('buckets') ?? manifest.buckets);
  const random = seededRandom(manifest.seed);
  const perceptron = new AveragedPerceptron(buckets, lexicon);
  let model: NameModel | undefined;
  for (let epoch = 1; epoch <= epochs; epoch++) {
    const t0 = Date.now();
    const errors = perceptron.trainEpoch(splits.train, shuffledOrder(splits.train.length, random));
    if (epoch === epochs || epoch % 4 === 0) {
      model = perceptron.averagedModel({ profile, epochs: epoch, trainedOn: 'train' });
      const s = scoreTagger(quantisedScorer(model), splits.dev);
      log(`epoch ${epoch}: ${errors} errors, dev tagger P ${precision(s).toFixed(3)} R ${recall(s).toFixed(3)} F1 ${f1(s).toFixed(3)} (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
    } else log(`epoch ${epoch}: ${errors} errors (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
  }
  return model as NameModel;
}

function detectorScore(sentences: readonly LabelledSentence[], errors?: string[]): NameScore {
  const score = emptyScore();
  for (const s of sentences) {
    const { text, chars } = sentenceText(s.words);
    const gold = chars(tagSpans(s.tags, 0));
    const found = detect(text).filter((f) => f.type === 'PERSON');
    addScore(score, gold, chars([...tagSpans(s.tags, 1), ...tagSpans(s.tags, 2)]), found);
    if (errors === undefined) continue;
    const key = (x: Span): string => `${x.start}:${x.end}`;
    const g = new Set(gold.map(key));
    const f = new Set(found.map(key));
    const mark = (x: Span, kind: string): string => `${kind} ${text.slice(Math.max(0, x.start - 40), x.start)}[${text.slice(x.start, x.end)}]${text.slice(x.end, x.end + 30)}`;
    for (const x of gold) if (!f.has(key(x))) errors.push(mark(x, 'MISS'));
    for (const x of found) if (!g.has(key(x))) errors.push(mark(x, 'FP  '));
  }
  return score;
}

const fmt = (s: NameScore): string => `P ${precision(s).toFixed(3)} R ${recall(s).toFixed(3)} F1 ${f1(s).toFixed(3)}`;

const load = arg('load');
const model = load !== undefined ? decodeNameModel(readFileSync(load)) : trainOnly(Number(arg('epochs') ?? manifest.maxEpochs));
const save = arg('save');
if (save !== undefined) writeFileSync(save, encodeNameModel(model));
useNameModel(model);
const scorer = quantisedScorer(model);
const errorLang = arg('errors');
const byLang = new Map<string, { tagger: NameScore; detector: NameScore }>();
const errors: string[] = [];
for (const set of devSets()) {
  const tagger = scoreTagger(scorer, set.sentences);
  const detector = detectorScore(set.sentences, set.language === errorLang ? errors : undefined);
  log(`${set.label.padEnd(20)} ${String(set.sentences.length).padStart(5)}  tagger ${fmt(tagger)}  detector ${fmt(detector)}`);
  const t = byLang.get(set.language) ?? { tagger: emptyScore(), detector: emptyScore() };
  byLang.set(set.language, { tagger: mergeScores(t.tagger, tagger), detector: mergeScores(t.detector, detector) });
}
for (const [lang, t] of byLang) log(`${lang} all${' '.repeat(16)}tagger ${fmt(t.tagger)}  detector ${fmt(t.detector)}`);
// Articles (dev files that keep their breaks): each sentence alone, and the article as one text.
for (const [lang, docs] of devDocuments(profileSources(manifest, profile), dirs)) {
  log(`${lang} articles (${docs.length}) sentence by sentence ${fmt(scoreDocuments(docs, false))}  whole article ${fmt(scoreDocuments(docs, true))}`);
}
if (errors.length > 0) writeFileSync(arg('errors-file') ?? '/dev/stdout', `${errors.join('\n')}\n`);
