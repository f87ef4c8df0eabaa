#!/usr/bin/env node
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { encodeLanguageClusters, languageClusters } from './cluster-file.js';
import { capitalisationGrades, nameGrades } from './cluster-grades.js';
import { localPath, readClusterManifest, type BuiltClusters } from './cluster-manifest.js';
import { teiParagraphs } from './tei-text.js';
import { sentencesOf } from './unlabelled-sentences.js';
import { clusterVocabulary } from './word-clusters.js';

// npm run build:clusters -- --corpora <dir> [--language <code>]…
//
// Learns each language's word clusters from the unlabelled text names-model/clusters/sources.json lists (TEI
// novels and plays; every file checked against its SHA-256), writes names-model/clusters/<lang>.bin and records
// its checksum, size and token count in the manifest (file names relative to it). <dir> holds the sources' files as `<owner>/<repo>/<path>`
// (fetch the repositories at the listed commits). Same files and seed, same bytes out.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const MANIFEST = join(ROOT, 'names-model/clusters/sources.json');

const { values } = parseArgs({
  options: { corpora: { type: 'string' }, language: { type: 'string', multiple: true, default: [] } },
  strict: true,
});
if (values.corpora === undefined) {
  process.stderr.write('build:clusters: --corpora <dir> is required (the unlabelled sources as <owner>/<repo>/<path>)\n');
  process.exit(2);
}
const corpora = resolve(values.corpora);
const log = (line: string): void => void process.stdout.write(`${line}\n`);
const manifest = readClusterManifest(MANIFEST);
const languages = values.language.length > 0 ? values.language : manifest.languages;
const built: Record<string, BuiltClusters> = { ...manifest.clusters };

for (const language of languages) {
  const t0 = Date.now();
  const sources = manifest.sources.filter((s) => s.language === language);
  if (sources.length === 0) throw new Error(`no unlabelled source for ${language}`);
  const sentences: string[][] = [];
  let tokens = 0;
  const problems: string[] = [];
  for (const source of sources) {
    for (const file of source.files) {
      const bytes = readFileSync(join(corpora, localPath(source, file)));
      const sum = createHash('sha256').update(bytes).digest('hex');
      if (sum !== file.sha256) {
        problems.push(`${localPath(source, file)}: SHA-256 ${sum}, manifest ${file.sha256}`);
        continue;
      }
      for (const p of teiParagraphs(bytes.toString('utf8'))) {
        for (const s of sentencesOf(p)) {
          sentences.push(s);
          tokens += s.length;
        }
      }
    }
  }
  if (problems.length > 0) throw new Error(`unlabelled files do not match the manifest:\n  - ${problems.join('\n  - ')}`);
  log(`${language}: ${sources.map((s) => s.id).join(', ')}: ${sentences.length} sentences, ${tokens} tokens (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
  const v = clusterVocabulary(sentences, { ...manifest.options, seed: manifest.seed });
  const caps = capitalisationGrades(sentences, v.words);
  const names = nameGrades(v, caps);
  const bytes = encodeLanguageClusters(languageClusters(language, v, caps, names, tokens));
  const file = `${language}.bin`;
  writeFileSync(join(dirname(MANIFEST), file), bytes);
  built[language] = {
    file,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    bytes: bytes.length,
    words: v.words.length,
    tokens,
    sources: sources.map((s) => s.id),
  };
  log(`${language}: ${v.words.length} words in ${v.fineCount} clusters, names-model/clusters/${file} ${(bytes.length / 1e6).toFixed(2)} MB (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
  // Written after each language, so a long run that stops keeps what it finished.
  writeFileSync(MANIFEST, `${JSON.stringify({ ...manifest, clusters: built }, null, 1)}\n`);
}
