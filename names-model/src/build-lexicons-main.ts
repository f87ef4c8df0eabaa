#!/usr/bin/env node
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { addToLexiconSet, emptyLexiconSet, fnv1a, GIVEN_NAME_SET, SURNAME_SET } from '@gateway/privacy/internals';
import { encodeLexiconSet, readLexiconManifest, type BuiltLexicon, type LexiconManifest } from './lexicon-manifest.js';
import { countsNames, rankedNames, sourceNameCounts, sourceWords, takes } from './lexicon-words.js';
import { sha256OfFile } from './manifest.js';
import { polishPlaceForms } from './polish-place-forms.js';
import { createHash } from 'node:crypto';

// npm run build:lexicons -- --from <dir> [--manifest <file>]
// Rebuilds names-model/lexicons/<id>.bin from the sources a list manifest names (names-model/lexicons/sources.json,
// or --manifest, e.g. names-model/lexicons/names.json for the name statistics), read from <dir>/<local> (each
// checked against its SHA-256), and writes each list's sum, size and fill back into that manifest. Same files in,
// same bytes out (the words go in as hashes; order does not change a filter; ranks break ties by spelling).
// --dump <dir> also writes each list's words, one a line, there (to inspect a list; never committed).

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const { values } = parseArgs({ options: { from: { type: 'string' }, manifest: { type: 'string' }, dump: { type: 'string' } }, strict: true });
if (values.from === undefined) {
  process.stderr.write('build:lexicons: --from <dir> is needed: where the sources listed in names-model/lexicons/sources.json lie\n');
  process.exit(2);
}
const manifestFile = values.manifest === undefined ? join(ROOT, 'names-model/lexicons/sources.json') : resolve(values.manifest);
const manifest = readLexiconManifest(manifestFile);
const listDir = dirname(manifestFile);
// Per source its words; for name statistics in rank order (most frequent first), so a list may take a band.
const words = new Map<string, string[]>();
for (const source of manifest.sources) {
  const all: string[] = [];
  const counts: [string, number][] = [];
  for (const f of source.files) {
    const path = join(values.from, f.local);
    const sum = sha256OfFile(path);
    if (sum !== f.sha256) throw new Error(`${f.local}: SHA-256 ${sum}, the manifest says ${f.sha256}`);
    const text = readFileSync(path, 'utf8');
    if (countsNames(source)) counts.push(...sourceNameCounts(source, text));
    else for (const w of sourceWords(source, text)) all.push(w);
  }
  words.set(source.id, countsNames(source) ? rankedNames(counts) : all);
}
const lexicons: Record<string, BuiltLexicon> = {};
for (const id of manifest.order) {
  const spec = manifest.lexicons[id] as BuiltLexicon;
  const set = emptyLexiconSet(id, spec.bitsLog2, spec.probes);
  const lower = new Set<string>();
  const declined = spec.declined;
  if (declined !== undefined) {
    // The bases: the other sources' names, less those that are also a person's ("Anna" is a town too), whose
    // forms ("Anny", "Annie") would mark a person's name as a place's.
    const bases = new Set<string>();
    for (const s of spec.sources) {
      if (s === declined.forms) continue;
      for (const w of words.get(s) ?? []) {
        const cap = w.charAt(0).toUpperCase() + w.slice(1).toLowerCase();
        if (!GIVEN_NAME_SET.has(cap) && !SURNAME_SET.has(cap)) bases.add(w.toLowerCase());
      }
    }
    const people = new Set([...GIVEN_NAME_SET, ...SURNAME_SET].map((n) => n.toLowerCase()));
    for (const w of polishPlaceForms(bases, words.get(declined.forms) ?? [], people)) if (takes(spec.take, w)) lower.add(w.toLowerCase());
  } else {
    for (const s of spec.sources) {
      const all = words.get(s) ?? [];
      const band = spec.rank === undefined ? all : all.slice(spec.rank.from, spec.rank.below ?? undefined);
      for (const w of band) if (takes(spec.take, w)) lower.add(w.toLowerCase());
    }
  }
  for (const w of lower) addToLexiconSet(set, fnv1a(w));
  let ones = 0;
  for (const x of set.bits) for (let v = x; v !== 0; v &= v - 1) ones += 1;
  const fill = ones / 2 ** spec.bitsLog2;
  const bytes = encodeLexiconSet(set, lower.size);
  writeFileSync(join(listDir, spec.file), bytes);
  if (values.dump !== undefined) writeFileSync(join(values.dump, `${id}.txt`), `${[...lower].sort().join('\n')}\n`);
  lexicons[id] = {
    ...spec,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    bytes: bytes.length,
    words: lower.size,
    fill: Number(fill.toFixed(4)),
    falsePositive: Number((fill ** spec.probes).toExponential(2)),
  };
  process.stdout.write(`${id}: ${lower.size} words, ${(bytes.length / 1024).toFixed(0)} KB, fill ${fill.toFixed(3)}, false positive ${(fill ** spec.probes).toExponential(1)}\n`);
}
const out: LexiconManifest = { ...manifest, lexicons };
writeFileSync(manifestFile, `${JSON.stringify(out, null, 1)}\n`);
