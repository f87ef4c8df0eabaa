import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TRAINING_PROFILES, type TrainingProfile } from './manifest.js';

// What the dev-data tools (tune-main, losses-main, error-kinds-main) read from their command line alike.

/** The repository's root, from names-model/dist/src. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** The value of `--name=value` on the command line, if given. */
export const argOf = (name: string): string | undefined => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);

/** `--profile` (commercial by default): a commercial model is neither trained nor tuned on a research source. */
export function profileArg(): TrainingProfile {
  const profile = (argOf('profile') ?? 'commercial') as TrainingProfile;
  if (!TRAINING_PROFILES.includes(profile)) throw new Error(`--profile must be one of ${TRAINING_PROFILES.join(', ')}`);
  return profile;
}

/** Where the corpora are: NAMES_CORPORA_DIR first, then names-model/corpora (npm run corpora:names), then `extra`. */
export function corporaDirs(...extra: string[]): string[] {
  return [process.env.NAMES_CORPORA_DIR, join(REPO_ROOT, 'names-model/corpora'), ...extra].filter((d): d is string => d !== undefined && d !== '');
}
