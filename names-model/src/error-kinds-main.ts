#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { detect, useNameModel } from '@gateway/privacy';
import { decodeNameModel, GIVEN_NAME_SET, LONE_SURNAME_SET, SURNAME_SET } from '@gateway/privacy/internals';
import { profileSources, readManifest } from './manifest.js';
import { argOf as arg, corporaDirs, profileArg, REPO_ROOT as ROOT } from './dev-tool.js';
import { namesAfterTitles, sentenceText, type Span, tagSpans } from './score-names.js';
import { loadSplits } from './train-names.js';

// node names-model/dist/src/error-kinds-main.js --load=<model> [--profile=commercial|research] [--show=<kind text>]
// The whole detector's PERSON errors on the DEV parts of the profile's sources (never the held-out part), sorted
// by kind per language: boundaries, places and organisations, one word opening a sentence or not, whether the name
// lists know it, capitals, lower case. The first kind that fits counts (in the order below). Load a model of the
// train part alone (tune-main.js --save): the shipped model has read the dev part. docs/privacy.md (p).

const manifest = readManifest(join(ROOT, 'names-model/manifest.json'));
const profile = profileArg();
const load = arg('load');
if (load === undefined) throw new Error('--load=<model file> is required');
useNameModel(decodeNameModel(readFileSync(load)));
const dirs = corporaDirs();
const show = arg('show');

const known = (w: string): boolean => GIVEN_NAME_SET.has(w) || SURNAME_SET.has(w) || LONE_SURNAME_SET.has(w);
const overlaps = (a: Span, b: Span): boolean => a.start < b.end && b.start < a.end;
/** Only spaces, quotes or brackets before it in the sentence. */
const OPENING = /^[\s"“„«(–-]*$/u;

/** The kind of a span that is wrong: `other` are the spans on the other side (found for a miss, gold for a false positive). */
function kindOf(text: string, x: Span, other: readonly Span[], placesOrgs: readonly Span[], miss: boolean): string {
  const value = text.slice(x.start, x.end);
  const words = value.split(/\s+/);
  const o = other.find((y) => overlaps(x, y));
  if (o !== undefined) {
    const [gold, found] = miss ? [x, o] : [o, x];
    return found.start > gold.start && found.end === gold.end ? 'boundary: a leading word of the gold name left out ("Mr.", "Dear")' : 'boundary: other';
  }
  if (!miss && placesOrgs.some((p) => overlaps(x, p))) return 'a gold place or organisation';
  if (miss && !/^\p{Lu}/u.test(value)) return 'not capitalised';
  if (miss && words.length > 1 && /^[\p{Lu}\s.'’-]+$/u.test(value)) return 'all in capitals';
  const lists = words.some(known) ? ', the lists know it' : '';
  if (words.length > 1) return `several words${lists}`;
  return `one word${OPENING.test(text.slice(0, x.start)) ? ' opening a sentence' : ' mid sentence'}${lists}`;
}

const counts = new Map<string, Map<string, number>>();
const examples: string[] = [];
const languages: string[] = [];
for (const source of profileSources(manifest, profile)) {
  for (const language of [...new Set(source.files.map((f) => f.language))]) {
    const one = { ...source, files: source.files.filter((f) => f.language === language) };
    if (!languages.includes(language)) languages.push(language);
    for (const s of loadSplits(manifest.seed, [one], dirs).dev) {
      const { text, chars } = sentenceText(s.words);
      const gold = chars(namesAfterTitles(s.words, tagSpans(s.tags, 0)));
      const placesOrgs = chars([...tagSpans(s.tags, 1), ...tagSpans(s.tags, 2)]);
      const found = detect(text).filter((f) => f.type === 'PERSON');
      const key = (x: Span): string => `${x.start}:${x.end}`;
      const goldKeys = new Set(gold.map(key));
      const foundKeys = new Set(found.map(key));
      const add = (kind: string, x: Span): void => {
        const byLanguage = counts.get(kind) ?? new Map<string, number>();
        byLanguage.set(language, (byLanguage.get(language) ?? 0) + 1);
        counts.set(kind, byLanguage);
        if (show !== undefined && kind.includes(show)) {
          examples.push(`${language} ${source.id} ${kind}: ${text.slice(Math.max(0, x.start - 40), x.start)}[${text.slice(x.start, x.end)}]${text.slice(x.end, x.end + 30)}`);
        }
      };
      for (const g of gold) add(foundKeys.has(key(g)) ? 'found' : `MISS ${kindOf(text, g, found, placesOrgs, true)}`, g);
      for (const f of found) if (!goldKeys.has(key(f))) add(`FP ${kindOf(text, f, gold, placesOrgs, false)}`, f);
    }
  }
}
const out = [['kind'.padEnd(72), ...languages.map((l) => l.padStart(6))].join('')];
for (const kind of [...counts.keys()].sort()) out.push([kind.padEnd(72), ...languages.map((l) => String(counts.get(kind)?.get(l) ?? 0).padStart(6))].join(''));
process.stdout.write(`${[...out, ...examples].join('\n')}\n`);
