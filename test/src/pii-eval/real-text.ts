// The real-text section of `npm run eval:pii`: the whole detector on the held-out part of the name tagger's
// training corpora (never trained or tuned on; see names-model/src/split.ts), per language and source. PERSON
// precision / recall / F1 by exact span, and how often a gold place or organisation is flagged as PERSON.
import { fileURLToPath } from 'node:url';
import { detect } from '@gateway/privacy';
import {
  addScore,
  emptyScore,
  f1,
  loadSplits,
  mergeScores,
  precision,
  readManifest,
  recall,
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
const COMMITTED_CORPORA = fileURLToPath(new URL('../../../../names-model/corpora', import.meta.url));

/** Scores the detector on `sentences`; pushes each error in context when `errors` is given. */
export function scoreDetector(sentences: readonly LabelledSentence[], errors?: string[]): NameScore {
  const score = emptyScore();
  for (const s of sentences) {
    const { text, chars } = sentenceText(s.words);
    const gold = chars(tagSpans(s.tags, 0));
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

function row(label: string, sentences: number, s: NameScore): string {
  const gold = s.truePositives + s.falseNegatives;
  const confusion = s.placeOrgSpans === 0 ? '   n/a' : ((100 * s.placeOrgFlagged) / s.placeOrgSpans).toFixed(1).padStart(5) + '%';
  return [
    label.padEnd(22),
    String(sentences).padStart(9),
    String(gold).padStart(6),
    precision(s).toFixed(3).padStart(9),
    recall(s).toFixed(3).padStart(7),
    f1(s).toFixed(3).padStart(7),
    `${confusion} of ${s.placeOrgSpans}`.padStart(18),
  ].join(' ');
}

export interface RealTextOptions {
  /** Directories holding the corpora (NAMES_CORPORA_DIR first); the committed ones are always tried last. */
  readonly corporaDirs: readonly string[];
  readonly langs?: readonly string[];
  readonly showErrors?: boolean;
}

/** The real-text tables, or a line saying which sources were skipped because their files are not here. */
export function evaluateRealText(options: RealTextOptions): string {
  const manifest = readManifest(MANIFEST);
  const dirs = [...options.corporaDirs, COMMITTED_CORPORA];
  const sets: { source: CorpusSource; set: HeldOutSet }[] = [];
  const skipped: string[] = [];
  for (const source of manifest.sources) {
    try {
      for (const set of loadSplits(manifest.seed, [source], dirs).heldout) sets.push({ source, set });
    } catch {
      skipped.push(source.id);
    }
  }
  const lines = [
    'real text: the held-out 10% of the name tagger\'s training corpora and the dev splits kept for this report',
    '(never trained or tuned on), whole detector;',
    'PERSON by exact span; last column: gold places and organisations overlapped by a PERSON finding',
    `${'language / source'.padEnd(22)} sentences   gold precision recall      f1   LOC/ORG as PERSON`,
  ];
  const byLang = new Map<string, { sentences: number; score: NameScore; human: NameScore; humanSentences: number }>();
  const errors: string[] = [];
  const langs = options.langs ?? ['en', 'de', 'fr', 'es', 'it', 'nl', 'pl'];
  for (const { source, set } of sets) {
    if (!langs.includes(set.language)) continue;
    const score = scoreDetector(set.sentences, options.showErrors === true ? errors : undefined);
    lines.push(row(`${set.language} ${source.id}`, set.sentences.length, score));
    const total = byLang.get(set.language) ?? { sentences: 0, score: emptyScore(), human: emptyScore(), humanSentences: 0 };
    total.sentences += set.sentences.length;
    total.score = mergeScores(total.score, score);
    if (!source.silver) {
      total.human = mergeScores(total.human, score);
      total.humanSentences += set.sentences.length;
    }
    byLang.set(set.language, total);
  }
  lines.push('per language, all sources:');
  for (const lang of langs) {
    const t = byLang.get(lang);
    if (t !== undefined) lines.push(row(`${lang} all`, t.sentences, t.score));
  }
  lines.push('per language, hand-labelled sources only (silver Wikipedia labels left out):');
  for (const lang of langs) {
    const t = byLang.get(lang);
    if (t !== undefined && t.humanSentences > 0) lines.push(row(`${lang} hand-labelled`, t.humanSentences, t.human));
  }
  if (skipped.length > 0) lines.push(`skipped (files not in ${dirs.join(', ')}): ${skipped.join(', ')}`);
  if (errors.length > 0) lines.push('errors:', ...errors);
  return `${lines.join('\n')}\n`;
}
