#!/usr/bin/env node
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { readManifest, TRAINING_PROFILES, type TrainingProfile } from './manifest.js';
import { fromGitMirrors, fromWeb, materialise } from './materialise.js';

// npm run corpora:names [-- --from-git <mirrors dir>] [--dir <data dir>] [--profile commercial|research] [--manifest <file>]
//
// Materialises every corpus file the manifest lists into the data directory (--dir, else NAMES_CORPORA_DIR, else
// names-model/corpora, which git ignores), each checked against the manifest's SHA-256; a mismatch is refused and
// the command exits 1. Bytes come from git mirrors (--from-git: <dir>/<owner>+<name>/repo, `git cat-file blob
// <commit>:<path>`) or else from https://raw.githubusercontent.com/<owner>/<name>/<commit>/<path>.
// --profile commercial: only the sources the shipped model is trained on; without it, every source.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

const { values } = parseArgs({
  options: {
    'from-git': { type: 'string' },
    dir: { type: 'string' },
    profile: { type: 'string' },
    manifest: { type: 'string' },
  },
  strict: true,
});
if (values.profile !== undefined && !TRAINING_PROFILES.includes(values.profile as TrainingProfile)) {
  process.stderr.write(`corpora:names: --profile must be one of ${TRAINING_PROFILES.join(', ')}, not ${values.profile}\n`);
  process.exit(2);
}
const manifest = readManifest(resolve(values.manifest ?? join(ROOT, 'names-model/manifest.json')));
const env = process.env.NAMES_CORPORA_DIR;
const dir = resolve(values.dir ?? (env !== undefined && env !== '' ? env : join(ROOT, 'names-model/corpora')));
// A source labelled here from unlabelled text (labelledBy) is not fetched: npm run build:self makes its files.
const labelled = manifest.sources.filter((s) => s.labelledBy !== undefined);
const sources = manifest.sources.filter((s) => (values.profile !== 'commercial' || s.commercialUse) && s.labelledBy === undefined);
const read = values['from-git'] !== undefined ? fromGitMirrors(resolve(values['from-git'])) : fromWeb();

const result = await materialise(
  sources.flatMap((s) => s.files),
  dir,
  read,
);
process.stdout.write(`${dir}: ${result.written.length} written, ${result.present.length} already there with the manifest's SHA-256\n`);
for (const s of labelled) process.stdout.write(`${s.id}: labelled here, not fetched: npm run build:self -- --from-git <mirrors> --out ${dir}\n`);
if (result.problems.length > 0) {
  process.stderr.write(`${result.problems.length} not materialised:\n  - ${result.problems.join('\n  - ')}\n`);
  process.exit(1);
}
