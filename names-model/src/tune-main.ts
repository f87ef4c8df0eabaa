#!/usr/bin/env node
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { detect } from '@gateway/privacy';
import { useNameModel, type NameModel } from '@gateway/privacy';
import { decodeNameModel, encodeNameModel } from '@gateway/privacy/internals';
import { quantisedScorer } from '@gateway/privacy/internals';
import { SHIPPED_MARGINS, useDetectorMargins, type DetectorMargins } from '@gateway/privacy/internals';
import { profileSources, readManifest } from './manifest.js';
import { argOf as arg, corporaDirs, profileArg, REPO_ROOT as ROOT } from './dev-tool.js';
import { AveragedPerceptron, seededRandom, shuffledOrder } from './perceptron.js';
import type { LabelledSentence } from './read-corpus.js';
import { addScore, emptyScore, f1, mergeScores, namesAfterTitles, precision, recall, sentenceText, tagSpans, type NameScore, type Span } from './score-names.js';
import { devDocuments, scoreDocuments } from './document-eval.js';
import { buildLexicon, chosenSources, loadSplits, scoreTagger } from './train-names.js';

// node names-model/dist/src/tune-main.js [--manifest=<file>] [--profile=commercial|research] [--without=<source id>,…] [--clusters=<JSON>] [--epochs=<n>] [--buckets=<n>] [--shuffle-seed=<n>] [--templates=<bits>] [--constrained] [--tagger-only] [--save=<file>] [--load=<file>] [--errors=<lang> --errors-file=<file>]
//   [--margins=<JSON>] [--tune-margins [--keep-precision] [--margins-out=<file>]]
// The tuning loop, on dev data only: trains a model on the train part alone (never dev, never the held-out
// part), or loads one saved by an earlier run, then scores the tagger alone and the whole detector on each
// source's dev part per language. What the detector's rules and the training choices were tuned with. The profile
// (commercial by default) bounds both: a commercial model is neither trained nor tuned on a research source.
// --margins sets some of the detector's margins (detector-margins.ts) for the run; --tune-margins searches them on
// the same dev parts (coordinate search, below) and writes what it settles on to --margins-out. Tune on a model of
// the train part alone (the default, or --load of one saved with --save): the shipped model has read the dev part.

const clusterOverride = arg('clusters');
const manifestFile = resolve(arg('manifest') ?? join(ROOT, 'names-model/manifest.json'));
const shipped = readManifest(manifestFile);
// --clusters overrides the manifest's cluster settings one by one.
const manifest = clusterOverride === undefined ? shipped : { ...shipped, clusters: { ...shipped.clusters, ...(JSON.parse(clusterOverride) as object) } };
const profile = profileArg();
const dirs = corporaDirs(join(dirname(manifestFile), 'corpora'));
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
  const built = buildLexicon(manifest, splits.train, dirname(manifestFile)).lexicon;
  // --templates: bits of the extra context templates (name-features.ts) to train with.
  const templates = Number(arg('templates') ?? built.templates ?? 0);
  const lexicon = templates === 0 ? built : { ...built, templates };
  const buckets = Number(arg('buckets') ?? manifest.buckets);
  // --shuffle-seed: another draw of the epoch shuffles over the same splits (a change is judged over several).
  const random = seededRandom(Number(arg('shuffle-seed') ?? manifest.shuffleSeed ?? manifest.seed));
  // --constrained: train as the proxy decodes (perceptron.ts); else the manifest's choice.
  const perceptron = new AveragedPerceptron(buckets, lexicon, process.argv.includes('--constrained') || manifest.constrainedTraining === true);
  let model: NameModel | undefined;
  for (let epoch = 1; epoch <= epochs; epoch++) {
    const t0 = Date.now();
    const errors = perceptron.trainEpoch(splits.train, shuffledOrder(splits.train.length, random));
    if (epoch === epochs || epoch % 2 === 0) {
      model = perceptron.averagedModel({ profile, epochs: epoch, trainedOn: 'train' });
      const s = scoreTagger(quantisedScorer(model), splits.dev);
      log(`epoch ${epoch}: ${errors} errors, dev tagger P ${precision(s).toFixed(3)} R ${recall(s).toFixed(3)} F1 ${f1(s).toFixed(3)} (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
      if (process.argv.includes('--tagger-only')) log(`  by language: ${languageLine(quantisedScorer(model))}`);
    } else log(`epoch ${epoch}: ${errors} errors (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
  }
  return model as NameModel;
}

/** The tagger alone's PERSON F1 per language over the dev parts, in a line. */
function languageLine(scorer: ReturnType<typeof quantisedScorer>): string {
  const byLanguage = new Map<string, NameScore>();
  for (const set of cachedDevSets()) byLanguage.set(set.language, mergeScores(byLanguage.get(set.language) ?? emptyScore(), scoreTagger(scorer, set.sentences)));
  return [...byLanguage].map(([l, sc]) => `${l} ${f1(sc).toFixed(3)}`).join(' ');
}

let devCache: DevSet[] | undefined;
function cachedDevSets(): DevSet[] {
  return (devCache ??= devSets());
}

function detectorScore(sentences: readonly LabelledSentence[], errors?: string[]): NameScore {
  const score = emptyScore();
  for (const s of sentences) {
    const { text, chars } = sentenceText(s.words);
    const gold = chars(namesAfterTitles(s.words, tagSpans(s.tags, 0)));
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

/** The values each margin is tried at (trainer's units). */
const MARGIN_GRID = [0, 2, 4, 6, 8, 10, 12, 15, 20, 25, 30, 35, 40, 50];
/** The least gain in mean F1 that moves a margin: about one name in two hundred. */
const MIN_GAIN = 0.002;
/** With --keep-precision: the most dev precision any language may lose against the starting margins. */
const PRECISION_SLACK = 0.003;

const fmt = (s: NameScore): string => (s.truePositives + s.falsePositives + s.falseNegatives === 0 ? '-' : fmtScore(s));
const fmtScore = (s: NameScore): string => `P ${precision(s).toFixed(3)} R ${recall(s).toFixed(3)} F1 ${f1(s).toFixed(3)}`;

const load = arg('load');
const model = load !== undefined ? decodeNameModel(readFileSync(load)) : trainOnly(Number(arg('epochs') ?? manifest.maxEpochs));
const save = arg('save');
if (save !== undefined) writeFileSync(save, encodeNameModel(model));
useNameModel(model);
const scorer = quantisedScorer(model);
const marginsArg = arg('margins');
if (marginsArg !== undefined) useDetectorMargins({ ...SHIPPED_MARGINS, ...(JSON.parse(marginsArg) as Partial<DetectorMargins>) });
if (process.argv.includes('--tune-margins')) tuneMargins();
const errorLang = arg('errors');
// --tagger-only: the tagger alone per language, without the detector's pass or the articles (a training change's quick measure).
const taggerOnly = process.argv.includes('--tagger-only');
const byLang = new Map<string, { tagger: NameScore; detector: NameScore }>();
const errors: string[] = [];
for (const set of cachedDevSets()) {
  const tagger = scoreTagger(scorer, set.sentences);
  const detector = taggerOnly ? emptyScore() : detectorScore(set.sentences, set.language === errorLang ? errors : undefined);
  log(`${set.label.padEnd(20)} ${String(set.sentences.length).padStart(5)}  tagger ${fmt(tagger)}  detector ${fmt(detector)}`);
  const t = byLang.get(set.language) ?? { tagger: emptyScore(), detector: emptyScore() };
  byLang.set(set.language, { tagger: mergeScores(t.tagger, tagger), detector: mergeScores(t.detector, detector) });
}
for (const [lang, t] of byLang) log(`${lang} all${' '.repeat(16)}tagger ${fmt(t.tagger)}  detector ${fmt(t.detector)}`);
// Articles (dev files that keep their breaks): each sentence alone, and the article as one text.
for (const [lang, docs] of taggerOnly ? [] : devDocuments(profileSources(manifest, profile), dirs)) {
  log(`${lang} articles (${docs.length}) sentence by sentence ${fmt(scoreDocuments(docs, false))}  whole article ${fmt(scoreDocuments(docs, true))}`);
}
if (errors.length > 0) writeFileSync(arg('errors-file') ?? '/dev/stdout', `${errors.join('\n')}\n`);

/**
 * The detector's margins searched on the dev parts: each margin in turn over a fixed grid, the others held, kept
 * where the mean over languages of the whole detector's PERSON F1 (sentence by sentence) gains at least
 * MIN_GAIN over the value in force; passes until none moves (at most three). Starting from the margins in force
 * (--margins over the shipped ones). Few names separate neighbouring values on dev parts of a few hundred names, so
 * a gain under MIN_GAIN leaves the value where it was.
 */
function tuneMargins(): void {
  const sets = devSets();
  if (sets.length === 0) throw new Error(`no dev part to tune on in the ${profile} profile`);
  const languages = [...new Set(sets.map((s) => s.language))];
  const objective = (m: DetectorMargins): { mean: number; precisions: number[]; line: string } => {
    useDetectorMargins(m);
    const byLanguage = new Map<string, NameScore>();
    for (const set of sets) byLanguage.set(set.language, mergeScores(byLanguage.get(set.language) ?? emptyScore(), detectorScore(set.sentences)));
    const scores = languages.map((l) => byLanguage.get(l) as NameScore);
    const f = scores.map(f1);
    return { mean: f.reduce((a, b) => a + b, 0) / f.length, precisions: scores.map(precision), line: languages.map((l, i) => `${l} ${fmt(scores[i] as NameScore)}`).join('; ') };
  };
  let current: DetectorMargins = { ...SHIPPED_MARGINS, ...(marginsArg === undefined ? {} : (JSON.parse(marginsArg) as Partial<DetectorMargins>)) };
  let best = objective(current);
  // Precision first: every language is below the target's 0.92, and what dev prose cannot show (agent text, the
  // look-alikes of the synthetic sets) is what lower margins let through; a value that costs any language more
  // than PRECISION_SLACK of dev precision against the margins the search started from is not taken.
  const floor = best.precisions.map((p) => p - PRECISION_SLACK);
  const admissible = (r: { precisions: number[] }): boolean => !process.argv.includes('--keep-precision') || r.precisions.every((p, i) => p >= (floor[i] as number));
  log(`margins in force: mean F1 ${best.mean.toFixed(4)}: ${best.line}`);
  const start = best;
  for (let pass = 1; pass <= 3; pass++) {
    let moved = false;
    for (const key of Object.keys(current) as (keyof DetectorMargins)[]) {
      let pick: { value: number; mean: number; precisions: number[]; line: string } | undefined;
      const tried: string[] = [];
      for (const value of MARGIN_GRID) {
        if (value === current[key]) continue;
        const r = objective({ ...current, [key]: value });
        tried.push(`${value}: ${r.mean.toFixed(4)}${admissible(r) ? '' : ' (precision)'}`);
        if (admissible(r) && r.mean >= best.mean + MIN_GAIN && (pick === undefined || r.mean > pick.mean)) pick = { value, ...r };
      }
      log(`pass ${pass} ${key} (now ${current[key]}, ${best.mean.toFixed(4)}): ${tried.join(', ')}${pick === undefined ? '' : ` → ${pick.value}`}`);
      if (pick !== undefined) {
        current = { ...current, [key]: pick.value };
        best = pick;
        moved = true;
      }
    }
    if (!moved) break;
  }
  useDetectorMargins(current);
  log(`before: mean F1 ${start.mean.toFixed(4)}: ${start.line}`);
  log(`after:  mean F1 ${best.mean.toFixed(4)}: ${best.line}`);
  const out = JSON.stringify(current);
  log(`margins: ${out}`);
  const file = arg('margins-out');
  if (file !== undefined) writeFileSync(file, `${out}\n`);
}
