import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { formatKeyFile, newKeyPem, parseKeyFile, rotatedKeyFile, type AttestationKey } from './attestation-keys.js';

/**
 * The attestation key file on disk. Every write is a whole new file renamed into place (mode 0600), so a proxy
 * polling the file never reads half of one; the first key is created without overwriting, so two processes
 * starting on an empty data directory agree on one key.
 */
export async function readKeyFile(path: string): Promise<AttestationKey[]> {
  return parseKeyFile(await readFile(path, 'utf8'), path);
}

async function writeTemp(path: string, text: string): Promise<string> {
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temp, text, { mode: 0o600 });
  return temp;
}

/** Creates the file with one new key unless it exists; true when this call created it. */
export async function createKeyFileIfMissing(path: string, now: Date): Promise<boolean> {
  const [key] = await parseKeyFile(newKeyPem(), 'new key');
  const temp = await writeTemp(path, formatKeyFile([{ ...(key as AttestationKey), addedAt: now }]));
  try {
    await link(temp, path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    await unlink(temp);
  }
}

/** `gatewayctl attestation rotate`: a new signing key first; the old ones kept for `retainDays` after retiring. */
export async function rotateKeyFile(path: string, now: Date, retainDays: number): Promise<{ created: boolean; kid: string; published: string[]; dropped: string[] }> {
  if (await createKeyFileIfMissing(path, now)) {
    const keys = await readKeyFile(path);
    return { created: true, kid: (keys[0] as AttestationKey).kid, published: keys.map((k) => k.kid), dropped: [] };
  }
  const rotated = await rotatedKeyFile(await readKeyFile(path), now, retainDays);
  await rename(await writeTemp(path, rotated.text), path);
  const keys = await readKeyFile(path);
  return { created: false, kid: rotated.added.kid, published: keys.map((k) => k.kid), dropped: rotated.dropped };
}
