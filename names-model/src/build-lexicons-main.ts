#!/usr/bin/env node
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { addToLexiconSet, emptyLexiconSet, fnv1a } from '@gateway/privacy/internals';
import { encodeLexiconSet, readLexiconManifest, type BuiltLexicon, type LexiconManifest } from './lexicon-manifest.js';
import { sourceWords, takes } from './lexicon-words.js';
import { sha256OfFile } from './manifest.js';
import { createHash } from 'node:crypto';

// npm run build:lexicons -- --from <dir>
// Rebuilds names-model/lexicons/<id>.bin from the sources names-model/lexicons/sources.json lists, read from
// <dir>/<local> (each checked against its SHA-256), and writes each list's sum, size and fill back into the
// manifest. Same files in, same bytes out (the words go in as hashes; order does not change a filter).

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const { values } = parseArgs({ options: { from: { type: 'string' } }, strict: true });
if (values.from === undefined) {
  process.stderr.write('build:lexicons: --from <dir> is needed: where the sources listed in names-model/lexicons/sources.json lie\n');
  process.exit(2);
}
const manifestFile = join(ROOT, 'names-model/lexicons/sources.json');
const manifest = readLexiconManifest(manifestFile);
const words = new Map<string, string[]>();
for (const source of manifest.sources) {
  const all: string[] = [];
  for (const f of source.files) {
    const path = join(values.from, f.local);
    const sum = sha256OfFile(path);
    if (sum !== f.sha256) throw new Error(`${f.local}: SHA-256 ${sum}, the manifest says ${f.sha256}`);
    for (const w of sourceWords(source, readFileSync(path, 'utf8'))) all.push(w);
  }
  words.set(source.id, all);
}
const lexicons: Record<string, BuiltLexicon> = {};
for (const id of manifest.order) {
  const spec = manifest.lexicons[id] as BuiltLexicon;
  const set = emptyLexiconSet(id, spec.bitsLog2, spec.probes);
  const lower = new Set<string>();
  for (const s of spec.sources) for (const w of words.get(s) ?? []) if (takes(spec.take, w)) lower.add(w.toLowerCase());
  for (const w of lower) addToLexiconSet(set, fnv1a(w));
  let ones = 0;
  for (const x of set.bits) for (let v = x; v !== 0; v &= v - 1) ones += 1;
  const fill = ones / 2 ** spec.bitsLog2;
  const bytes = encodeLexiconSet(set, lower.size);
  writeFileSync(join(ROOT, 'names-model/lexicons', spec.file), bytes);
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
