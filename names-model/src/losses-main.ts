#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { detect } from '@gateway/privacy';
import { decodeNameModel } from '@gateway/privacy/internals';
import { useNameModel } from '@gateway/privacy';
import { NameFeatureContext } from '@gateway/privacy/internals';
import { quantisedScorer, tagNames, tagWords } from '@gateway/privacy/internals';
import { addTaggedNames } from '@gateway/privacy/internals';
import { notAPersonHere } from '@gateway/privacy/internals';
import { COMMON_WORD_GIVEN_NAME_SET, GIVEN_NAME_SET, LONE_SURNAME_SET, PRODUCT_NAMES, STOP_WORDS } from '@gateway/privacy/internals';
import type { Candidate } from '@gateway/privacy/internals';
import { profileSources, readManifest } from './manifest.js';
import { argOf as arg, corporaDirs, profileArg, REPO_ROOT as ROOT } from './dev-tool.js';
import { sentenceText, tagSpans, type Span } from './score-names.js';
import { loadSplits } from './train-names.js';

// node names-model/dist/src/losses-main.js --load=<model> [--profile=commercial|research] [--examples=<n>] [--lang=<xx>]
// Where the whole detector loses the names the tagger alone finds, and where its false positives come from, on
// the DEV parts only (never the held-out part): each gold name is followed through the stages of `detect` (the
// tagger on the detector's own tokens, its filters in tagged-names.ts, the overlap rules with the list and
// context recognizers), and the first stage that drops it is counted.

const manifest = readManifest(join(ROOT, 'names-model/manifest.json'));
// The dev parts of the profile's sources only: a commercial model's rules are not tuned on research data.
const profile = profileArg();
const dirs = corporaDirs();
const load = arg('load');
if (load === undefined) throw new Error('--load=<model file> is required');
const model = decodeNameModel(readFileSync(load));
useNameModel(model);
const scorer = quantisedScorer(model);
const examples = Number(arg('examples') ?? 5);
const onlyLang = arg('lang');
const CAP = 1500;
// As tagged-names.ts and person.ts write them: which of their rules dropped a name is told apart here.
const CODE_BEFORE = /[\p{L}\p{N}_./\\@#$<>=`{[|~*+^]$/u;
const CODE_AFTER = /^(?:[(_=`\]}>|*+^<@#$\\/~]|[.:][\p{L}\p{N}_]|;(?:\r|\n|$))/u;
const HOUSE_AFTER = /^[ \t]\d{1,4}[a-z]?(?![\d\p{L}]|[ \t]?\d)[ \t]?(?:[,.;)\r\n]|$)/u;
const HOUSE_BEFORE = /(?:^|[^\d.,:-])(?!1\d{3}\b|20\d{2}\b)\d{3,5}[a-z]?,?[ \t]$/;

/** Which of personStart's one-word rules (tagged-names.ts, in its order) drops `word`. */
function oneWordRule(word: string, confidence: number, opens: boolean, common: boolean): string {
  const known = GIVEN_NAME_SET.has(word) || LONE_SURNAME_SET.has(word);
  if (word.length < 2 || STOP_WORDS.has(word)) return 'stop word';
  if (opens && confidence < 25 && !known) return 'opening margin 25';
  if (PRODUCT_NAMES.has(word)) return 'product';
  if (COMMON_WORD_GIVEN_NAME_SET.has(word) && (opens || confidence < 30)) return 'common-word given name';
  if (common && !known && confidence < 30) return 'lexicon word, margin 30';
  if (confidence < 8 && !known) return 'margin 8';
  return 'other';
}

const key = (x: Span): string => `${x.start}:${x.end}`;

interface Tally {
  counts: Map<string, number>;
  shown: Map<string, string[]>;
}
const tallies = new Map<string, Tally>();
function count(lang: string, cause: string, example: string): void {
  let t = tallies.get(lang);
  if (t === undefined) tallies.set(lang, (t = { counts: new Map(), shown: new Map() }));
  t.counts.set(cause, (t.counts.get(cause) ?? 0) + 1);
  const shown = t.shown.get(cause) ?? [];
  if (shown.length < examples) shown.push(example);
  t.shown.set(cause, shown);
}

for (const source of profileSources(manifest, profile)) {
  for (const language of [...new Set(source.files.map((f) => f.language))]) {
    if (onlyLang !== undefined && language !== onlyLang) continue;
    const one = { ...source, files: source.files.filter((f) => f.language === language) };
    const dev = loadSplits(manifest.seed, [one], dirs).dev;
    const step = Math.max(1, Math.ceil(dev.length / CAP));
    for (const s of dev.filter((_, i) => i % step === 0)) {
      const { text, chars } = sentenceText(s.words);
      const mark = (x: Span): string => `${source.id}: ${text.slice(Math.max(0, x.start - 40), x.start)}[${text.slice(x.start, x.end)}]${text.slice(x.end, x.end + 30)}`;
      const gold = chars(tagSpans(s.tags, 0));
      const first = new Uint8Array(s.words.length);
      first[0] = 1;
      const alone = new Set(chars(tagSpans(tagWords(scorer, new NameFeatureContext(s.words, first, scorer.lexicon)), 0)).map(key));
      const tagged = tagNames(scorer, text);
      const rawPer = tagged.filter((t) => t.kind === 'PER');
      const raw = new Set(rawPer.map(key));
      const mine: Candidate[] = [];
      addTaggedNames(text, tagged, mine);
      const kept = new Set(mine.map(key));
      const found = detect(text).filter((f) => f.type === 'PERSON');
      const final = new Set(found.map(key));
      const goldKeys = new Set(gold.map(key));
      const lang = language;
      for (const g of gold) {
        const k = key(g);
        if (final.has(k)) {
          count(lang, alone.has(k) ? 'found (tagger alone too)' : 'found (tagger alone misses)', mark(g));
          continue;
        }
        if (!alone.has(k)) {
          count(lang, 'missed, tagger alone misses too', mark(g));
          continue;
        }
        if (!raw.has(k)) {
          const near = rawPer.find((t) => t.start < g.end && g.start < t.end);
          count(lang, near === undefined ? 'LOST: detector tokens, no PER span' : 'LOST: detector tokens, other PER bounds', `${mark(g)}  got ${near ? text.slice(near.start, near.end) : '-'}`);
          continue;
        }
        if (!kept.has(k)) {
          const t = rawPer.find((x) => key(x) === k);
          const m = mine.find((x) => x.start < g.end && g.start < x.end);
          let why = 'filtered: other';
          const around = `${t?.opensSentence ? 'opening, ' : ''}${t?.words === 1 ? 'one word' : 'several words'}`;
          if (m !== undefined) why = 'filtered: trimmed';
          else if (HOUSE_AFTER.test(text.slice(g.end, g.end + 8)) || HOUSE_BEFORE.test(text.slice(Math.max(0, g.start - 8), g.start))) why = `filtered: number beside it (house-number rule), ${around}`;
          else if (notAPersonHere(text, g.start, g.end)) why = `filtered: notAPersonHere other, ${around}`;
          else if (CODE_BEFORE.test(text.slice(Math.max(0, g.start - 1), g.start)) || CODE_AFTER.test(text.slice(g.end, g.end + 2))) why = `filtered: code punctuation, ${around}`;
          else if (t !== undefined && t.words === 1) why = `filtered: one word${t.opensSentence ? ' opening' : ''}: ${oneWordRule(text.slice(t.start, t.end), t.firstConfidence, t.opensSentence, t.firstCommon)}`;
          else if (t !== undefined && t.opensSentence && t.words === 1) why = 'filtered: one word opening sentence';
          else if (t !== undefined && t.opensSentence) why = 'filtered: opening, several words';
          else if (t !== undefined && t.words === 1) why = 'filtered: one word mid sentence';
          else if (t !== undefined) why = 'filtered: several words mid sentence';
          count(lang, `LOST: ${why}`, `${mark(g)}  conf ${t?.firstConfidence.toFixed(1)}/${t?.restConfidence.toFixed(1)} common ${t?.firstCommon}${m ? ` kept ${text.slice(m.start, m.end)}` : ''}`);
          continue;
        }
        const over = found.find((f) => f.start < g.end && g.start < f.end);
        count(lang, over === undefined ? 'LOST: overlap, nothing left' : 'LOST: overlap, another PERSON span wins', `${mark(g)}  got ${over ? text.slice(over.start, over.end) : '-'}`);
      }
      for (const f of found) {
        const k = key(f);
        if (goldKeys.has(k)) continue;
        const fromTagger = kept.has(k);
        const inAlone = alone.has(k);
        count(lang, `FP ${fromTagger ? 'tagger' : 'rules'}${inAlone ? ' (tagger alone too)' : ''}`, mark(f));
      }
      for (const k of alone) if (!goldKeys.has(k) && !final.has(k)) count(lang, 'tagger-alone FP the detector drops', k);
      // Every PERSON span of the tagger (on the detector's tokens) a filter drops: a name lost or a false positive saved.
      for (const t of rawPer) {
        const k = key(t);
        if (kept.has(k)) continue;
        const m = mine.find((x) => x.start < t.end && t.start < x.end);
        const around = `${t.opensSentence ? 'opening, ' : ''}${t.words === 1 ? 'one word' : 'several words'}`;
        let why: string;
        if (m !== undefined) why = 'trimmed';
        else if (HOUSE_AFTER.test(text.slice(t.end, t.end + 8)) || HOUSE_BEFORE.test(text.slice(Math.max(0, t.start - 8), t.start))) why = `house-number rule, ${around}`;
        else if (notAPersonHere(text, t.start, t.end)) why = `notAPersonHere other, ${around}`;
        else if (CODE_BEFORE.test(text.slice(Math.max(0, t.start - 1), t.start)) || CODE_AFTER.test(text.slice(t.end, t.end + 2))) why = `code punctuation, ${around}`;
        else if (t.words === 1) why = `one word${t.opensSentence ? ' opening' : ''}: ${oneWordRule(text.slice(t.start, t.end), t.firstConfidence, t.opensSentence, t.firstCommon)}`;
        else why = `other, ${around}`;
        count(lang, `RULE ${why} ${goldKeys.has(k) ? 'drops a name' : 'saves a FP'}`, `${mark(t)} conf ${t.firstConfidence.toFixed(1)}`);
      }
    }
  }
}

for (const [lang, t] of tallies) {
  process.stdout.write(`== ${lang}\n`);
  for (const [cause, n] of [...t.counts].sort((a, b) => a[0].localeCompare(b[0]))) {
    process.stdout.write(`${String(n).padStart(6)}  ${cause}\n`);
    if (cause.startsWith('found') || cause.startsWith('tagger-alone') || cause.startsWith('missed') || cause.startsWith('LOST')) continue;
    for (const e of t.shown.get(cause) ?? []) process.stdout.write(`          ${e}\n`);
  }
}
