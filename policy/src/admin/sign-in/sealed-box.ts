import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Authenticated encryption (AES-256-GCM) for what the gateway hands to a browser or keeps at rest on the
 * provider's behalf: the sign-in handshake cookie and refresh tokens. The key is derived from the client secret,
 * which every policy replica has, so a handshake started on one replica completes on another. Each use has its
 * own purpose string, bound as associated data: a sealed refresh token cannot pass for a handshake.
 */
export class SealedBox {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = Buffer.from(hkdfSync('sha256', secret, 'model-gateway', 'admin sign-in sealing v1', 32));
  }

  seal(purpose: string, plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(purpose));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  }

  /** The plain text, or undefined when the value was not sealed by this key for this purpose. */
  open(purpose: string, sealed: string): string | undefined {
    const raw = Buffer.from(sealed, 'base64url');
    if (raw.length < 29) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
      decipher.setAAD(Buffer.from(purpose));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    } catch {
      return undefined;
    }
  }
}
