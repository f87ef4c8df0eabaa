#!/usr/bin/env node
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { shippedModelTerms } from './licence-terms.js';
import { readClusterManifest } from './cluster-manifest.js';
import { readLexiconManifest } from './lexicon-manifest.js';
import { readManifest } from './manifest.js';

// node names-model/dist/src/notice-main.js
// Rewrites the shipped model's NOTICE and the profile and terms in its checksum note from names-model/manifest.json,
// without retraining: for a corrected licence entry. The model's bytes (and so its digest) do not change. A model
// whose header states its own terms keeps them (the loader reads the header first); train:names writes all three.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const manifest = readManifest(join(ROOT, 'names-model/manifest.json'));
const modelFile = resolve(ROOT, manifest.model.file);
const clusters = manifest.unlabelledClusters === undefined ? undefined : readClusterManifest(join(ROOT, 'names-model', manifest.unlabelledClusters));
const lexicons = manifest.lexicons === undefined ? undefined : readLexiconManifest(join(ROOT, 'names-model', manifest.lexicons));
const { terms, notice } = shippedModelTerms(manifest, clusters, lexicons);
const noteFile = modelFile.replace(/\.bin$/, '.json');
const note = JSON.parse(readFileSync(noteFile, 'utf8')) as Record<string, unknown>;
const { sha256, bytes, ...rest } = note;
writeFileSync(noteFile, `${JSON.stringify({ sha256, bytes, profile: manifest.model.profile, terms, ...rest }, null, 2)}\n`);
writeFileSync(join(dirname(modelFile), 'NOTICE'), notice);
process.stdout.write(`${noteFile} and NOTICE: ${manifest.model.profile} profile; ${terms}\n`);
