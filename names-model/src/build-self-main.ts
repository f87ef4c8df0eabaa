#!/usr/bin/env node
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { useNameModel } from '@gateway/privacy';
import { decodeNameModel, quantisedScorer } from '@gateway/privacy/internals';
import { localPath, readClusterManifest } from './cluster-manifest.js';
import { readManifest, type CorpusFile } from './manifest.js';
import { fromGitMirrors } from './materialise.js';
import { capLanguage, iob2Tsv, labelNovel, sampleNovel, type SilverSentence } from './self-training.js';
import { teiParagraphs } from './tei-text.js';

// npm run build:self -- (--from-git <mirrors> | --novels <dir>) --out <corpora dir> [--source <id>] [--labeller <file>] [--write-manifest]
//
// Materialises a self-trained silver source (self-training.ts) of names-model/manifest.json: a source with
// `labelledBy`. Its novels are the unlabelled sources it names in names-model/clusters/sources.json (their files,
// SHA-256 and left-out evaluation novels as listed there), read from git mirrors (<mirrors>/<owner>+<repo>/repo at
// the listed commit) or a directory (<dir>/<owner>/<repo>/<path>), each checked against its SHA-256. They are
// labelled by the model `labelledBy` names (its SHA-256 checked: a commercial model, never a research one), sampled
// as it says, and written as <out>/<file.local> (iob2-tsv, git-ignored like every corpus). --write-manifest
// records the files' SHA-256 in the manifest; otherwise a file whose SHA-256 differs from the manifest's is an
// error. Same novels, model and sampling: same bytes.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const MANIFEST = join(ROOT, 'names-model/manifest.json');

const { values } = parseArgs({
  options: {
    'from-git': { type: 'string' },
    novels: { type: 'string' },
    out: { type: 'string' },
    source: { type: 'string', default: 'eltec-self' },
    labeller: { type: 'string' },
    'write-manifest': { type: 'boolean', default: false },
    manifest: { type: 'string' },
  },
  strict: true,
});
function usage(problem: string): never {
  process.stderr.write(`build:self: ${problem}\n`);
  process.exit(2);
}
if (values.out === undefined) usage('--out <corpora dir> is required');
if ((values['from-git'] === undefined) === (values.novels === undefined)) usage('give one of --from-git <mirrors> or --novels <dir>');
const manifestFile = resolve(values.manifest ?? MANIFEST);
const manifest = readManifest(manifestFile);
const source = manifest.sources.find((s) => s.id === values.source);
const by = source?.labelledBy;
if (source === undefined || by === undefined) usage(`${values.source}: no source with labelledBy in ${manifestFile}`);
const log = (line: string): void => void process.stdout.write(`${line}\n`);
const sha256 = (bytes: Buffer | string): string => createHash('sha256').update(bytes).digest('hex');

const labellerFile = resolve(values.labeller ?? join(ROOT, by.model));
const labellerBytes = readFileSync(labellerFile);
if (sha256(labellerBytes) !== by.sha256) usage(`${labellerFile}: SHA-256 ${sha256(labellerBytes)}, but ${source.id} is labelled by ${by.sha256}`);
const model = decodeNameModel(labellerBytes);
useNameModel(model);
const scorer = quantisedScorer(model);

const clusters = readClusterManifest(join(dirname(manifestFile), manifest.unlabelledClusters ?? 'clusters/sources.json'));
const reader = values['from-git'] !== undefined ? fromGitMirrors(resolve(values['from-git'])) : undefined;
const out = resolve(values.out);
const updated: CorpusFile[] = [];
let problems = 0;

for (const file of source.files) {
  const t0 = Date.now();
  const novels = clusters.sources.find((u) => u.id === by.novels[file.language] && u.language === file.language);
  if (novels === undefined) usage(`${source.id}: no unlabelled source ${String(by.novels[file.language])} for ${file.language}`);
  if (novels.repository !== file.repository || novels.commit !== file.commit) {
    usage(`${file.local}: ${file.repository}@${file.commit} is not ${novels.repository}@${novels.commit} (clusters/sources.json)`);
  }
  const picks: { novel: string; sentences: SilverSentence[] }[] = [];
  let read = 0;
  let propagated = 0;
  for (const novel of novels.files) {
    const bytes =
      reader !== undefined
        ? await reader({ ...file, path: novel.path, local: localPath(novels, novel), sha256: novel.sha256 })
        : readFileSync(join(resolve(values.novels as string), localPath(novels, novel)));
    if (sha256(bytes) !== novel.sha256) throw new Error(`${novel.path}: SHA-256 ${sha256(bytes)}, clusters/sources.json says ${novel.sha256}`);
    const sentences = labelNovel(teiParagraphs(bytes.toString('utf8')), scorer);
    read += sentences.length;
    propagated += sentences.filter((s) => s.propagated).length;
    picks.push({ novel: novel.path, sentences: sampleNovel(novel.path, sentences, by.sampling) });
  }
  const kept = capLanguage(picks, by.sampling);
  const tsv = iob2Tsv(kept);
  const count = kept.reduce((n, p) => n + p.sentences.length, 0);
  const withLone = kept.reduce((n, p) => n + p.sentences.filter((s) => s.propagated).length, 0);
  const target = join(out, file.local);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(`${target}.part`, tsv);
  renameSync(`${target}.part`, target);
  const sum = sha256(tsv);
  // What the labels were made from: the novels read, by path and SHA-256, in order.
  const sourceSha256 = sha256(novels.files.map((n) => `${n.path} ${n.sha256}\n`).join(''));
  log(
    `${file.language}: ${novels.files.length} novels, ${read} sentences, ${propagated} with a propagated lone mention; kept ${count} (${withLone} propagated), ${target} sha256 ${sum} (${((Date.now() - t0) / 1000).toFixed(0)} s)`,
  );
  if (!values['write-manifest'] && (sum !== file.sha256 || sourceSha256 !== file.sourceSha256)) {
    process.stderr.write(`${file.local}: SHA-256 ${sum} (novels ${sourceSha256}), the manifest says ${file.sha256} (novels ${String(file.sourceSha256)})\n`);
    problems += 1;
  }
  updated.push({ ...file, sha256: sum, sourceSha256 });
}
if (values['write-manifest']) {
  const sources = manifest.sources.map((s) => (s.id === source.id ? { ...s, files: updated } : s));
  writeFileSync(manifestFile, `${JSON.stringify({ ...manifest, sources }, null, 2)}\n`);
  log(`${manifestFile}: ${source.id} files recorded`);
}
if (problems > 0) process.exit(1);
