import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { CorpusSource } from '../../src/index.js';

/**
 * Where the real corpora are read from: NAMES_CORPORA_DIR, then names-model/corpora (git ignores it; npm run
 * corpora:names materialises them there). They are not committed, so CI has none.
 */
export function realCorporaDirs(root: string): string[] {
  const env = process.env.NAMES_CORPORA_DIR;
  return [...(env !== undefined && env !== '' ? [env] : []), join(root, 'names-model/corpora')];
}

/**
 * Whether any file of `sources` has been materialised in `dirs`. A check of the real data runs only then; once
 * one file is there, every other must be too (the check itself fails on a missing or changed file).
 */
export function realCorporaMaterialised(sources: readonly CorpusSource[], dirs: readonly string[]): boolean {
  return sources.some((s) => s.files.some((f) => dirs.some((d) => existsSync(join(d, f.local)))));
}
