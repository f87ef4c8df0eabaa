import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { decodeNameModel, sha256Hex, type NameModel } from './name-model.js';

/** The model the repository ships (proxy/models/, beside the proxy that loads it), written by `npm run train:names`. */
export const SHIPPED_NAME_MODEL_FILE = fileURLToPath(new URL('../../../../proxy/models/person-tagger.bin', import.meta.url));

/** The model file is missing, changed or unreadable: the proxy must not start (privacy would be weaker). */
export class NameModelError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NameModelError';
  }
}

function noteFileOf(modelFile: string): string {
  return modelFile.replace(/(\.bin)?$/, '.json');
}

/**
 * Reads the person-name model and checks its SHA-256 against the note written beside it when it was trained (the
 * same sum the training manifest records). Throws NameModelError with what to do when anything is off.
 */
export function loadNameModel(file: string = SHIPPED_NAME_MODEL_FILE): NameModel {
  const remedy = 'restore it from the repository (proxy/models/) or rebuild it with `npm run train:names`';
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (err: unknown) {
    const code = (err as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new NameModelError(`person-name model ${file} cannot be read (${code}): PERSON detection needs it; ${remedy}`);
  }
  let expected: string;
  try {
    expected = (JSON.parse(readFileSync(noteFileOf(file), 'utf8')) as { sha256: string }).sha256;
  } catch {
    throw new NameModelError(`person-name model checksum note ${noteFileOf(file)} is missing or unreadable; ${remedy}`);
  }
  const actual = sha256Hex(bytes);
  if (actual !== expected) {
    throw new NameModelError(`person-name model ${file} is corrupt: SHA-256 ${actual}, expected ${expected}; ${remedy}`);
  }
  try {
    return decodeNameModel(bytes);
  } catch (err: unknown) {
    throw new NameModelError(`person-name model ${file} cannot be decoded (${err instanceof Error ? err.message : String(err)}); ${remedy}`);
  }
}
