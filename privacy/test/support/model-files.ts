/** The shipped name model copied where a test may spoil it: for the loader's and the proxy's start-up checks. */
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SHIPPED_NAME_MODEL_FILE } from '../../src/index.js';

/** A copy of the shipped model and its checksum note in a fresh directory. */
export function copyOfModel(): string {
  const dir = mkdtempSync(join(tmpdir(), 'name-model-'));
  const file = join(dir, 'person-tagger.bin');
  copyFileSync(SHIPPED_NAME_MODEL_FILE, file);
  copyFileSync(SHIPPED_NAME_MODEL_FILE.replace(/\.bin$/, '.json'), file.replace(/\.bin$/, '.json'));
  return file;
}

/** Flips one byte of the gzipped weights, so the file no longer matches its checksum note. */
export function corrupt(file: string): void {
  const bytes = readFileSync(file);
  bytes[bytes.length - 100] = (bytes[bytes.length - 100] as number) ^ 0xff;
  writeFileSync(file, bytes);
}
