import { AuthenticationError, type LeaseRefWire, type Logger, type PolicyClient } from '@gateway/shared';

interface InFlight {
  keyId: string;
  lease: LeaseRefWire | null;
  controller: AbortController;
}

/**
 * The requests this proxy is serving: keeps their concurrency leases alive while they run, and cuts every
 * request of a key the moment the policy service says it was revoked.
 */
export class InflightRegistry {
  private readonly byRequest = new Map<string, InFlight>();
  private renewTimer: NodeJS.Timeout | undefined;
  private stopWatch: (() => void) | undefined;

  constructor(
    private readonly policy: PolicyClient,
    private readonly log: Logger,
  ) {}

  /** Renews leases every third of their lifetime; watches revocations. */
  start(leaseTtlMs: number): void {
    this.renewTimer = setInterval(() => void this.renew(), Math.max(250, Math.floor(leaseTtlMs / 3)));
    this.renewTimer.unref();
    this.stopWatch = this.policy.watchRevocations((keyId) => this.revoke(keyId));
  }

  stop(): void {
    if (this.renewTimer !== undefined) clearInterval(this.renewTimer);
    this.stopWatch?.();
  }

  get size(): number {
    return this.byRequest.size;
  }

  /** Tracks a request; the returned signal aborts on revocation (reason: the 401 to send). */
  add(requestId: string, keyId: string, lease: LeaseRefWire | null, controller: AbortController): void {
    this.byRequest.set(requestId, { keyId, lease, controller });
  }

  remove(requestId: string): void {
    this.byRequest.delete(requestId);
  }

  revoke(keyId: string): void {
    for (const f of this.byRequest.values()) {
      if (f.keyId === keyId && !f.controller.signal.aborted) {
        f.controller.abort(new AuthenticationError('This API key has been revoked.'));
      }
    }
  }

  private async renew(): Promise<void> {
    const leases = [...this.byRequest.values()].flatMap((f) => (f.lease === null ? [] : [f.lease]));
    if (leases.length === 0) return;
    try {
      const unknown = await this.policy.renewLeases(leases);
      if (unknown.length > 0) this.log.warn({ count: unknown.length }, 'leases expired before renewal');
    } catch (err) {
      this.log.warn({ err }, 'lease renewal failed');
    }
  }
}
