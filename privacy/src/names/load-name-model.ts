import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
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

/** A checked model and what a process states about it: its digest (attested) and its terms (logged at start). */
export interface CheckedNameModel {
  readonly model: NameModel;
  readonly file: string;
  /** hex SHA-256 of the file's bytes */
  readonly sha256: string;
  /**
   * The training profile, `commercial` or `research`: the model header's `info.profile`, else the checksum note's
   * `profile` (a model trained before profiles existed carries it there); `unstated` if neither has it.
   */
  readonly profile: string;
  /** Its licence terms in a line: the header's `info.terms`, else the note's `terms`; a pointer to the manifest if neither. */
  readonly terms: string;
  /** The NOTICE file beside the model (obligations of its sources), or null when there is none. */
  readonly notice: string | null;
}

const UNSTATED_TERMS = "not stated in the model file: see the sources' licences in names-model/manifest.json";

function textOf(record: Readonly<Record<string, unknown>>, key: string): string | undefined {
  const value = record[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * Reads the person-name model and checks its SHA-256 against the note written beside it when it was trained (the
 * same sum the training manifest records). Throws NameModelError with what to do when anything is off.
 */
export function loadNameModel(file: string = SHIPPED_NAME_MODEL_FILE): NameModel {
  return openNameModel(file).model;
}

/** loadNameModel, with the model's digest, profile and terms. */
export function openNameModel(file: string = SHIPPED_NAME_MODEL_FILE): CheckedNameModel {
  const remedy = 'restore it from the repository (proxy/models/) or rebuild it with `npm run train:names`';
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (err: unknown) {
    const code = (err as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new NameModelError(`person-name model ${file} cannot be read (${code}): PERSON detection needs it; ${remedy}`);
  }
  let note: Record<string, unknown> = {};
  let expected: string | undefined;
  try {
    note = JSON.parse(readFileSync(noteFileOf(file), 'utf8')) as Record<string, unknown>;
    expected = textOf(note, 'sha256');
  } catch {
    // reported below, as a note without a checksum
  }
  if (expected === undefined) {
    throw new NameModelError(`person-name model checksum note ${noteFileOf(file)} is missing or unreadable; ${remedy}`);
  }
  const actual = sha256Hex(bytes);
  if (actual !== expected) {
    throw new NameModelError(`person-name model ${file} is corrupt: SHA-256 ${actual}, expected ${expected}; ${remedy}`);
  }
  let model: NameModel;
  try {
    model = decodeNameModel(bytes);
  } catch (err: unknown) {
    throw new NameModelError(`person-name model ${file} cannot be decoded (${err instanceof Error ? err.message : String(err)}); ${remedy}`);
  }
  const notice = join(dirname(file), 'NOTICE');
  return {
    model,
    file,
    sha256: actual,
    profile: textOf(model.info, 'profile') ?? textOf(note, 'profile') ?? 'unstated',
    terms: textOf(model.info, 'terms') ?? textOf(note, 'terms') ?? UNSTATED_TERMS,
    notice: existsSync(notice) ? notice : null,
  };
}
