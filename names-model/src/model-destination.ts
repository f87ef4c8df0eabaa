import { join, resolve } from 'node:path';
import { SHIPPED_PROFILE, type DataManifest, type TrainingProfile } from './manifest.js';

/** Where a train:names run writes its model, and whether that is the model the repository ships. */
export interface ModelDestination {
  readonly file: string;
  /** The shipped file: its checksum and sources then go into the manifest. */
  readonly shipped: boolean;
}

/**
 * `out` when given; else, for the commercial profile with no source switched off, the shipped file (the manifest's
 * model.file, relative to `root`); else names-model/out/<profile>[-without-<ids>]/person-tagger.bin: a research
 * model, or one an operator trimmed, never replaces the one every customer may run.
 */
export function modelDestination(
  root: string,
  manifest: DataManifest,
  profile: TrainingProfile,
  without: readonly string[],
  out?: string,
): ModelDestination {
  if (out !== undefined) return { file: resolve(out), shipped: false };
  if (profile === SHIPPED_PROFILE && without.length === 0) return { file: resolve(root, manifest.model.file), shipped: true };
  const dir = `${profile}${without.length > 0 ? `-without-${without.join('-')}` : ''}`;
  return { file: join(root, 'names-model/out', dir, 'person-tagger.bin'), shipped: false };
}
