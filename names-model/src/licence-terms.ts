import type { ClusterManifest } from './cluster-manifest.js';
import type { LexiconManifest } from './lexicon-manifest.js';
import type { CorpusSource, DataManifest, TrainingProfile } from './manifest.js';

/** What the terms line and NOTICE read of a source, labelled (manifest.ts) or unlabelled (cluster-manifest.ts). */
export type SourceTerms = Pick<CorpusSource, 'id' | 'name' | 'licence' | 'spdx' | 'commercialUse' | 'obligations'>;

/**
 * The model's terms in one line, for its header (`info.terms`) and the proxy's start-up log: what use its sources
 * allow, and which refuse commercial use when any do.
 */
export function termsLine(profile: TrainingProfile, sources: readonly SourceTerms[]): string {
  const refused = sources.filter((s) => !s.commercialUse);
  const list = (ss: readonly SourceTerms[]): string => ss.map((s) => `${s.id} ${s.spdx}`).join(', ');
  const duties = sources.some((s) => s.obligations.attribution !== null || s.obligations.shareAlike)
    ? 'attribution and share-alike obligations in the NOTICE beside the model'
    : 'no attribution or share-alike obligation';
  if (refused.length === 0) {
    return `${profile} profile: commercial use allowed by every source (${list(sources)}); ${duties}`;
  }
  return `${profile} profile: NOT for commercial use (sources that refuse it: ${list(refused)}); ${duties}`;
}

/**
 * The NOTICE written beside a trained model: its profile and terms, then each source it learned from (labels,
 * word clusters, lexicon, epoch choice) with its licence and obligations. The same sources give the same text.
 */
export function noticeText(
  profile: TrainingProfile,
  sources: readonly SourceTerms[],
  clusterSources: readonly SourceTerms[] = [],
  lexiconSources: readonly SourceTerms[] = [],
): string {
  const lines = [
    'Person-name tagger model: notices',
    '',
    `Profile: ${profile}`,
    `Terms: ${termsLine(profile, [...sources, ...clusterSources, ...lexiconSources])}`,
    '',
    `Trained by names-model (npm run train:names -- --profile ${profile}) from the sources below: each one's labelled`,
    'sentences, and the word clusters, lower-case lexicon and epoch choice computed from them, are in the model.',
    'Share-alike: the licence asks that adaptations of the data be shared under the same licence; whether trained',
    'weights are such an adaptation is not settled, so the obligation is stated here for whoever redistributes the',
    'model. Origins, commits and checksums of every file: names-model/manifest.json.',
  ];
  if (clusterSources.length > 0) {
    lines.push(
      '',
      'Word clusters learnt from unlabelled text are in the model too: their sources follow the labelled ones',
      '(files, commits and checksums: names-model/clusters/sources.json).',
    );
  }
  if (lexiconSources.length > 0) {
    lines.push(
      '',
      'Word lists read as features are in the model too, as Bloom filters of word hashes: their sources follow',
      '(files, versions and checksums: names-model/lexicons/sources.json).',
    );
  }
  for (const s of [...sources, ...clusterSources, ...lexiconSources]) {
    lines.push(
      '',
      `== ${s.id}: ${s.name}`,
      `Licence: ${s.spdx} (commercial use: ${s.commercialUse ? 'yes' : 'no'})`,
      `  ${s.licence}`,
      `Attribution: ${s.obligations.attribution ?? 'none required'}`,
      `Share-alike: ${s.obligations.shareAlike ? `yes (${s.spdx})` : 'no'}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The shipped model's terms line and NOTICE, from the manifest's record of how it was trained; the unlabelled
 * sources of its word clusters from `clusters` (names-model/clusters/sources.json) when the record names any.
 */
export function shippedModelTerms(
  manifest: DataManifest,
  clusters?: ClusterManifest,
  lexicons?: LexiconManifest,
): { sources: CorpusSource[]; terms: string; notice: string } {
  const sources = manifest.model.sources.map((id) => {
    const source = manifest.sources.find((s) => s.id === id);
    if (source === undefined) throw new Error(`the shipped model names source ${id}, which the manifest does not list`);
    return source;
  });
  const clusterSources = (manifest.model.clusterSources ?? []).map((id) => {
    const source = clusters?.sources.find((s) => s.id === id);
    if (source === undefined) throw new Error(`the shipped model names unlabelled source ${id}, which the cluster manifest does not list`);
    return source;
  });
  const lexiconSources = (manifest.model.lexiconSources ?? []).map((id) => {
    const source = lexicons?.sources.find((s) => s.id === id);
    if (source === undefined) throw new Error(`the shipped model names word-list source ${id}, which the lexicon manifest does not list`);
    return source;
  });
  return {
    sources,
    terms: termsLine(manifest.model.profile, [...sources, ...clusterSources, ...lexiconSources]),
    notice: noticeText(manifest.model.profile, sources, clusterSources, lexiconSources),
  };
}
