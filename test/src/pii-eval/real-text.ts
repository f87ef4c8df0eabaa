// The real-text section of `npm run eval:pii`: the whole detector on the held-out part of the name tagger's
// training corpora (never trained or tuned on; see names-model/src/split.ts), per language and source. PERSON
// precision / recall / F1 by exact span, and how often a gold place or organisation is flagged as PERSON.
import { fileURLToPath } from 'node:url';
import { detect, useNameModel, type NameModel } from '@gateway/privacy';
import {
  addScore,
  emptyScore,
  f1,
  loadSplits,
  mergeScores,
  precision,
  readManifest,
  recall,
  namesAfterTitles,
  sentenceText,
  tagSpans,
  type CorpusSource,
  type HeldOutSet,
  type LabelledSentence,
  type NameScore,
  type Span,
} from '@gateway/names-model';

// This file is test/dist/src/pii-eval/real-text.js once built: four levels below the repo root.
const MANIFEST = fileURLToPath(new URL('../../../../names-model/manifest.json', import.meta.url));
// Where npm run corpora:names materialises the corpora by default (git ignores it: none is committed).
const LOCAL_CORPORA = fileURLToPath(new URL('../../../../names-model/corpora', import.meta.url));

/** Scores the detector on `sentences`; pushes each error in context when `errors` is given. */
export function scoreDetector(sentences: readonly LabelledSentence[], errors?: string[]): NameScore {
  const score = emptyScore();
  for (const s of sentences) {
    const { text, chars } = sentenceText(s.words);
    const gold = chars(namesAfterTitles(s.words, tagSpans(s.tags, 0)));
    const places = chars([...tagSpans(s.tags, 1), ...tagSpans(s.tags, 2)]);
    const found = detect(text).filter((f) => f.type === 'PERSON');
    addScore(score, gold, places, found);
    if (errors === undefined) continue;
    const key = (x: Span): string => `${x.start}:${x.end}`;
    const goldKeys = new Set(gold.map(key));
    const foundKeys = new Set(found.map(key));
    const mark = (x: Span, kind: string): string => `  ${kind}: ${text.slice(Math.max(0, x.start - 40), x.start)}[${text.slice(x.start, x.end)}]${text.slice(x.end, x.end + 30)}`;
    for (const g of gold) if (!foundKeys.has(key(g))) errors.push(mark(g, 'missed'));
    for (const f of found) if (!goldKeys.has(key(f))) errors.push(mark(f, 'false'));
  }
  return score;
}

/** A model the report scores, by the label its columns carry (`shipped (research)`, `commercial`). */
export interface EvalModel {
  readonly label: string;
  readonly model: NameModel;
}

/**
 * How a source's labels were made: by people on clean text, by people on OCR'd text, by people on social-media
 * posts (apart, so that the clean-text rows stay comparable), or from Wikipedia links; or software text (READMEs, docs, commits: few names, there to teach what is no name), kept out of the prose rows.
 */
type LabelKind = 'hand' | 'OCR' | 'social' | 'silver' | 'software';
const LABEL_KINDS: readonly LabelKind[] = ['hand', 'OCR', 'social', 'silver', 'software'];
const KIND_TITLE: Record<LabelKind, string> = {
  hand: 'hand-labelled clean text',
  OCR: "hand-labelled OCR'd text",
  social: 'hand-labelled social-media posts',
  silver: 'silver labels (Wikipedia links)',
  software: 'software text (hand-labelled; few names, kept out of "all")',
};

function kindOf(source: CorpusSource): LabelKind {
  if (source.software === true) return 'software';
  if (source.silver === true) return 'silver';
  if (source.ocr === true) return 'OCR';
  return source.social === true ? 'social' : 'hand';
}

function cells(s: NameScore): string {
  const confusion = s.placeOrgSpans === 0 ? '  n/a' : ((100 * s.placeOrgFlagged) / s.placeOrgSpans).toFixed(1).padStart(5);
  return `${precision(s).toFixed(3)} ${recall(s).toFixed(3)} ${f1(s).toFixed(3)} ${confusion}%`;
}

function row(label: string, sentences: number, gold: number, scores: readonly NameScore[]): string {
  return [label.padEnd(30), String(sentences).padStart(9), String(gold).padStart(6), ...scores.map((s) => cells(s).padStart(24))].join(' ');
}

function header(models: readonly EvalModel[]): string[] {
  return [
    `${''.padEnd(47)}${models.map((m) => m.label.slice(0, 23).padStart(25)).join('')}`,
    `${'language / source (labels)'.padEnd(30)} sentences   gold${'    P     R    F1 LOC/ORG'.padStart(25).repeat(models.length)}`,
  ];
}

export interface RealTextOptions {
  /** Directories holding the corpora (NAMES_CORPORA_DIR first); names-model/corpora is always tried last. */
  readonly corporaDirs: readonly string[];
  /** The manifest whose sources are scored (--names-manifest); names-model/manifest.json when absent. */
  readonly manifest?: string;
  readonly langs?: readonly string[];
  readonly showErrors?: boolean;
  /** The models to score side by side, each installed in turn (useNameModel); the caller restores its own after. */
  readonly models: readonly EvalModel[];
}

/** The real-text tables, or a line saying which sources were skipped because their files are not here. */
export function evaluateRealText(options: RealTextOptions): string {
  const manifest = readManifest(options.manifest ?? MANIFEST);
  const dirs = [...options.corporaDirs, LOCAL_CORPORA];
  const langs = options.langs ?? ['en', 'de', 'fr', 'es', 'it', 'nl', 'pl'];
  const sets: { source: CorpusSource; set: HeldOutSet }[] = [];
  const skipped: string[] = [];
  for (const source of manifest.sources) {
    // Labels our own model made (self-training): scoring a model against them measures agreement, not accuracy.
    if (source.labelledBy !== undefined) continue;
    try {
      for (const set of loadSplits(manifest.seed, [source], dirs).heldout) if (langs.includes(set.language)) sets.push({ source, set });
    } catch {
      skipped.push(source.id);
    }
  }
  const { models } = options;
  // scores[m][k]: model m on set k. One model installed at a time, every set scored under it.
  const errors: string[] = [];
  const scores = models.map((m) => {
    useNameModel(m.model);
    const modelErrors = options.showErrors === true ? [] as string[] : undefined;
    const perSet = sets.map(({ set }) => scoreDetector(set.sentences, modelErrors));
    if (modelErrors !== undefined && modelErrors.length > 0) errors.push(`errors, ${m.label}:`, ...modelErrors);
    return perSet;
  });
  const gold = (s: NameScore): number => s.truePositives + s.falseNegatives;
  const lines = [
    "real text: the held-out 10% of the name tagger's training corpora and the dev splits kept for this report",
    '(never trained or tuned on by any profile), whole detector, one column group per model; PERSON P / R / F1 by',
    'exact span; LOC/ORG: share of gold places and organisations overlapped by a PERSON finding. A source outside a',
    "model's profile was never read by it at all (the commercial model has not seen the research sources' text).",
    ...header(models),
  ];
  sets.forEach(({ source, set }, k) => {
    const first = scores[0]?.[k] ?? emptyScore();
    lines.push(row(`${set.language} ${source.id} (${kindOf(source)})`, set.sentences.length, gold(first), scores.map((perSet) => perSet[k] ?? emptyScore())));
  });
  for (const kind of ['all', ...LABEL_KINDS] as const) {
    const block: string[] = [];
    for (const lang of langs) {
      const ks = sets.flatMap((x, k) => (x.set.language === lang && (kind === 'all' ? kindOf(x.source) !== 'software' : kindOf(x.source) === kind) ? [k] : []));
      if (ks.length === 0) continue;
      const merged = scores.map((perSet) => ks.reduce((acc, k) => mergeScores(acc, perSet[k] ?? emptyScore()), emptyScore()));
      const sentences = ks.reduce((n, k) => n + (sets[k]?.set.sentences.length ?? 0), 0);
      block.push(row(`${lang} ${kind}`, sentences, gold(merged[0] ?? emptyScore()), merged));
    }
    if (block.length > 0) lines.push(kind === 'all' ? 'per language, all sources:' : `per language, ${KIND_TITLE[kind]} only:`, ...block);
  }
  if (skipped.length > 0) lines.push(`skipped (files not in ${dirs.join(', ')}): ${skipped.join(', ')}`);
  if (errors.length > 0) lines.push(...errors);
  return `${lines.join('\n')}\n`;
}
