import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeLanguageClusters, type LanguageClusters } from './cluster-file.js';
import { mergeClusters, type WideClusters } from './cluster-merge.js';
import { everyModelInputProblems, sha256OfFile, type CorpusSource } from './manifest.js';
import type { ClusterOptions } from './word-clusters.js';

/**
 * names-model/clusters/sources.json: the unlabelled text the word clusters are learnt from (`npm run
 * build:clusters`), file by file with its SHA-256, the files left out and why, and the cluster files built from
 * them with theirs. Training reads the committed cluster files only (checked against these sums), so a fresh
 * clone retrains without fetching any text.
 */
export interface UnlabelledFile {
  /** Path inside the repository; read from `<corpora dir>/<owner>/<repo>/<path>`. */
  readonly path: string;
  readonly sha256: string;
}

/** An unlabelled source: a labelled source's licence terms (manifest.ts), one language, one repository commit. */
export interface UnlabelledSource extends Omit<CorpusSource, 'files' | 'format'> {
  readonly language: string;
  readonly repository: string;
  readonly commit: string;
  /** Files of the directory not read: evaluation text (novels annotated in NER sets) and files absent from the snapshot. */
  readonly excluded: readonly { readonly path: string; readonly reason: string }[];
  readonly files: readonly UnlabelledFile[];
}

export interface BuiltClusters {
  /** Relative to the cluster manifest's directory. */
  readonly file: string;
  readonly sha256: string;
  readonly bytes: number;
  readonly words: number;
  readonly tokens: number;
  readonly sources: readonly string[];
}

export interface ClusterManifest {
  readonly seed: number;
  readonly options: Omit<ClusterOptions, 'seed'>;
  /** Languages built, in the order their cluster ids are numbered when merged. */
  readonly languages: readonly string[];
  readonly sources: readonly UnlabelledSource[];
  readonly clusters: Readonly<Record<string, BuiltClusters>>;
}

export function readClusterManifest(file: string): ClusterManifest {
  const m = JSON.parse(readFileSync(file, 'utf8')) as ClusterManifest;
  const problems: string[] = [];
  for (const s of m.sources) {
    problems.push(...everyModelInputProblems(s, 'word clusters'));
    if (!m.languages.includes(s.language)) problems.push(`${s.id}: language ${s.language} is not built`);
  }
  if (problems.length > 0) throw new Error(`${file}:\n  - ${problems.join('\n  - ')}`);
  return m;
}

/** Where a source's file lies under a corpora directory: `<owner>/<repo>/<path>`. */
export function localPath(source: UnlabelledSource, file: UnlabelledFile): string {
  return join(source.repository.replace(/^github\.com\//, ''), file.path);
}

/** The committed cluster files of every language, checked against the manifest's SHA-256, merged (cluster-merge.ts). */
export function loadMergedClusters(manifest: ClusterManifest, root: string): { clusters: WideClusters; files: string[] } {
  const parts: LanguageClusters[] = [];
  const files: string[] = [];
  for (const language of manifest.languages) {
    const built = manifest.clusters[language];
    if (built === undefined) throw new Error(`no word clusters built for ${language}: run npm run build:clusters`);
    const path = join(root, built.file);
    const sum = sha256OfFile(path);
    if (sum !== built.sha256) throw new Error(`${built.file}: SHA-256 ${sum} but names-model/clusters/sources.json says ${built.sha256}`);
    parts.push(decodeLanguageClusters(readFileSync(path)));
    files.push(built.file);
  }
  return { clusters: mergeClusters(parts), files };
}
