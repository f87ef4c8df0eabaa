#!/usr/bin/env node
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { quantisedScorer } from '@gateway/privacy/internals';
import { noticeText } from './licence-terms.js';
import { readManifest, TRAINING_PROFILES, type TrainingProfile } from './manifest.js';
import { modelDestination } from './model-destination.js';
import { f1, precision, recall } from './score-names.js';
import { scoreTagger, trainNames } from './train-names.js';

// npm run train:names [-- --profile commercial|research] [--without <source id>]… [--with <unused source id>]… [--out <file.bin>] [--manifest <file>]
//
// --profile: commercial (the default) trains only on sources whose licence allows commercial use, for everything
// (labels, word clusters, lexicon, the dev part); research adds the research-only and non-commercial sources.
// Where the model goes (model-destination.ts): --out when given; else, for the commercial profile with no source
// switched off, the shipped file (proxy/models/), whose checksum then goes into the manifest; else
// names-model/out/<profile>[-without-<ids>]/ (the research model: names-model/out/research/), which the proxy runs
// only when NAMES_MODEL names it. Beside the model: its checksum note (the loader checks it) and a NOTICE with the
// obligations of the sources it used. Corpora come from NAMES_CORPORA_DIR, then names-model/corpora (where
// npm run corpora:names materialises them; git ignores it), then the manifest's own corpora directory.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

const { values } = parseArgs({
  options: {
    profile: { type: 'string', default: 'commercial' },
    without: { type: 'string', multiple: true, default: [] },
    with: { type: 'string', multiple: true, default: [] },
    out: { type: 'string' },
    manifest: { type: 'string' },
  },
  strict: true,
});
function usage(problem: string): never {
  process.stderr.write(`train:names: ${problem}\n`);
  process.exit(2);
}
const profile = values.profile as TrainingProfile;
if (!TRAINING_PROFILES.includes(profile)) usage(`--profile must be one of ${TRAINING_PROFILES.join(', ')}, not ${values.profile}`);
// The note and NOTICE are named after the model file: a name without .bin would have the note overwrite it.
if (values.out !== undefined && !values.out.endsWith('.bin')) usage(`--out must name a .bin file, not ${values.out}`);
const manifestFile = resolve(values.manifest ?? join(ROOT, 'names-model/manifest.json'));
const manifest = readManifest(manifestFile);
const without = values.without.flatMap((w) => w.split(',')).filter((s) => s !== '');
const add = values.with.flatMap((w) => w.split(',')).filter((s) => s !== '');
// A source the manifest leaves out is not in the shipped model until the manifest says so: such a build goes elsewhere.
if (add.length > 0 && values.out === undefined) usage('--with <unused source> needs --out <file.bin> (not the shipped model)');
const dirs = [process.env.NAMES_CORPORA_DIR, join(ROOT, 'names-model/corpora'), join(dirname(manifestFile), 'corpora')].filter(
  (d): d is string => d !== undefined && d !== '',
);
const log = (line: string): void => void process.stdout.write(`${line}\n`);

const { file: modelFile, shipped } = modelDestination(ROOT, manifest, profile, without, values.out);

const t0 = Date.now();
const result = trainNames({ manifest, corporaDirs: dirs, profile, without, with: add, manifestDir: dirname(manifestFile), log });
mkdirSync(dirname(modelFile), { recursive: true });
writeFileSync(modelFile, result.bytes);
// The checksum note the loader checks, with the lineage: which profile, which sources on what terms, which files.
const note = {
  sha256: result.sha256,
  bytes: result.bytes.length,
  profile: result.profile,
  terms: result.terms,
  sources: result.sources,
  epochs: result.epochs,
  files: result.splits.read.map((r) => ({ source: r.source, local: r.file.local, role: r.file.role, sha256: r.file.sha256 })),
  ...(result.clusterLineage === null
    ? {}
    : { clusters: { sources: result.clusterLineage.sources.map((s) => s.id), files: result.clusterLineage.files } }),
  ...(result.lexiconLineage === null
    ? {}
    : { lexicons: { sources: result.lexiconLineage.sources.map((s) => s.id), files: result.lexiconLineage.files } }),
};
writeFileSync(modelFile.replace(/\.bin$/, '.json'), `${JSON.stringify(note, null, 2)}\n`);
writeFileSync(join(dirname(modelFile), 'NOTICE'), noticeText(result.profile, result.sourceTerms, result.clusterLineage?.sources ?? [], result.lexiconLineage?.sources ?? []));
if (shipped) {
  const clusterSources = result.clusterLineage?.sources.map((s) => s.id);
  const lexiconSources = result.lexiconLineage?.sources.map((s) => s.id);
  const model = {
    ...manifest.model,
    sha256: result.sha256,
    sources: result.sources,
    ...(clusterSources === undefined ? {} : { clusterSources }),
    ...(lexiconSources === undefined ? {} : { lexiconSources }),
  };
  writeFileSync(manifestFile, `${JSON.stringify({ ...manifest, model }, null, 2)}\n`);
}
log(`model: ${relative(process.cwd(), modelFile)}, ${(result.bytes.length / 1e6).toFixed(1)} MB, profile ${result.profile}, sha256 ${result.sha256}, best epoch ${result.epochs}`);
log(`NOTICE: ${relative(process.cwd(), join(dirname(modelFile), 'NOTICE'))}${shipped ? '' : `; run the proxy with NAMES_MODEL=${modelFile}`}`);
const scorer = quantisedScorer(result.model);
for (const h of result.splits.heldout) {
  const s = scoreTagger(scorer, h.sentences);
  log(`held out ${h.source}/${h.language}: PERSON P ${precision(s).toFixed(3)} R ${recall(s).toFixed(3)} F1 ${f1(s).toFixed(3)}`);
}
log(`done in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
