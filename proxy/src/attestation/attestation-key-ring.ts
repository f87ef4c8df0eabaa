import { stat } from 'node:fs/promises';
import type { KeyObject } from 'node:crypto';
import {
  createKeyFileIfMissing,
  publicJwks,
  readKeyFile,
  type AttestationKey,
  type GatewayConfig,
  type Logger,
  type PublicJwk,
} from '@gateway/shared';

/** How often the key file is looked at: a rotation (or a Secret's update) is picked up within a second. */
const POLL_MS = 500;

interface SigningKey {
  kid: string;
  key: KeyObject;
  /** the JWS protected header, base64url: the same for every statement this key signs */
  protectedHeader: string;
}

/**
 * The proxy's attestation keys: the file's first key signs, every key within its retention is published. The file
 * is polled (size, modification time and inode: a Kubernetes Secret is updated by swapping a symlink) and
 * reloaded when it changes; a file that cannot be read keeps the keys already loaded, and says so in the log.
 */
export class AttestationKeyRing {
  private keys: AttestationKey[] = [];
  private signingKey: SigningKey | undefined;
  private version = '';
  private timer: NodeJS.Timeout | undefined;
  private loading = false;
  /** The last problem logged, so a file that stays unreadable is reported once, not every poll. */
  private problem = '';

  private constructor(
    private readonly config: GatewayConfig['attestation'],
    private readonly log: Logger,
  ) {}

  /** Loads the keys (creating the data directory's file on first start); fails when there are none to sign with. */
  static async open(config: GatewayConfig['attestation'], log: Logger): Promise<AttestationKeyRing> {
    const ring = new AttestationKeyRing(config, log);
    if (config.inDataDir && (await createKeyFileIfMissing(config.keyFile, new Date()))) {
      log.info({ file: config.keyFile }, 'created an attestation signing key in the data directory');
    }
    await ring.reload();
    if (ring.signingKey === undefined) throw new Error(`no attestation signing key could be loaded from ${config.keyFile}`);
    return ring;
  }

  get signer(): SigningKey {
    return this.signingKey as SigningKey;
  }

  /** The public keys to publish now (GET /v1/attestation/keys). */
  jwks(now = new Date()): { keys: PublicJwk[] } {
    return publicJwks(this.keys, now, this.config.retainDays);
  }

  start(pollMs = POLL_MS): void {
    this.timer = setInterval(() => void this.reload(), pollMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
  }

  private async reload(): Promise<void> {
    if (this.loading) return;
    this.loading = true;
    try {
      const s = await stat(this.config.keyFile);
      const version = `${s.ino}:${s.size}:${s.mtimeMs}`;
      if (version === this.version) return;
      const keys = await readKeyFile(this.config.keyFile);
      const first = keys[0] as AttestationKey;
      const protectedHeader = Buffer.from(JSON.stringify({ alg: 'EdDSA', kid: first.kid })).toString('base64url');
      const changed = this.signingKey !== undefined && this.signingKey.kid !== first.kid;
      this.keys = keys;
      this.signingKey = { kid: first.kid, key: first.privateKey, protectedHeader };
      this.version = version;
      this.problem = '';
      if (changed) this.log.info({ kid: first.kid, published: this.jwks().keys.length }, 'attestation signing key changed');
    } catch (err) {
      // Never the file's content: only where and what kind of problem.
      const message = err instanceof Error ? err.message : String(err);
      if (message !== this.problem) this.log.error({ file: this.config.keyFile, err: { message } }, 'attestation keys could not be (re)loaded; keeping the ones loaded');
      this.problem = message;
    } finally {
      this.loading = false;
    }
  }
}
