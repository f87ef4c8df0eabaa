#!/usr/bin/env node
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readManifest } from './manifest.js';
import { f1, precision, recall } from './score-names.js';
import { scoreTagger, trainNames } from './train-names.js';
import { quantisedScorer } from '@gateway/privacy/internals';

// npm run train:names [-- --without=<source id>,… --manifest=<file>]
// Corpora come from NAMES_CORPORA_DIR, then names-model/corpora (the files committed here). Writes the model
// where the manifest says, its checksum into the manifest and into the proxy's model note.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

function arg(name: string): string | undefined {
  const hit = process.argv.find((a) => a.startsWith(`--${name}=`));
  return hit?.slice(name.length + 3);
}

const manifestFile = resolve(arg('manifest') ?? join(ROOT, 'names-model/manifest.json'));
const manifest = readManifest(manifestFile);
const without = (arg('without') ?? '').split(',').filter((s) => s !== '');
const dirs = [process.env.NAMES_CORPORA_DIR, join(ROOT, 'names-model/corpora'), join(dirname(manifestFile), 'corpora')].filter(
  (d): d is string => d !== undefined && d !== '',
);
const log = (line: string): void => void process.stdout.write(`${line}\n`);

const t0 = Date.now();
const result = trainNames({ manifest, corporaDirs: dirs, without, log });
const modelFile = resolve(ROOT, manifest.model.file);
mkdirSync(dirname(modelFile), { recursive: true });
writeFileSync(modelFile, result.bytes);
writeFileSync(
  modelFile.replace(/\.bin$/, '.json'),
  `${JSON.stringify({ sha256: result.sha256, bytes: result.bytes.length, sources: result.sources, epochs: result.epochs }, null, 2)}\n`,
);
writeFileSync(manifestFile, `${JSON.stringify({ ...manifest, model: { file: manifest.model.file, sha256: result.sha256, sources: result.sources } }, null, 2)}\n`);
log(`model: ${manifest.model.file}, ${(result.bytes.length / 1e6).toFixed(1)} MB, sha256 ${result.sha256}, best epoch ${result.epochs}`);
const scorer = quantisedScorer(result.model);
for (const h of result.splits.heldout) {
  const s = scoreTagger(scorer, h.sentences);
  log(`held out ${h.source}/${h.language}: PERSON P ${precision(s).toFixed(3)} R ${recall(s).toFixed(3)} F1 ${f1(s).toFixed(3)}`);
}
log(`done in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
