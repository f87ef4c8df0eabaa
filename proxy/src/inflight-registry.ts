import type { AbortHandle } from './abort-handle.js';
import { AuthenticationError, type GatewayError, type LeaseRefWire, type Logger, type PolicyClient } from '@gateway/shared';

interface InFlight {
  keyId: string;
  lease: LeaseRefWire | null;
  controller: AbortHandle;
}

/**
 * The requests this proxy is serving: keeps their concurrency leases alive while they run, and cuts every
 * request of a key the moment the policy service says it was revoked.
 */
export class InflightRegistry {
  private readonly byRequest = new Map<string, InFlight>();
  /** Keys revoked in the last minute, by when. */
  private readonly recentlyRevoked = new Map<string, number>();
  private renewTimer: NodeJS.Timeout | undefined;
  private stopWatch: (() => void) | undefined;

  constructor(
    private readonly policy: PolicyClient,
    private readonly log: Logger,
    /** Called for each request cut because its key was revoked or expired. */
    private readonly onCut: () => void = () => undefined,
  ) {}

  /** Renews leases every third of their lifetime; watches revocations. */
  start(leaseTtlMs: number): void {
    this.renewTimer = setInterval(() => void this.renew(), Math.max(250, Math.floor(leaseTtlMs / 3)));
    this.renewTimer.unref();
    this.stopWatch = this.policy.watchRevocations(
      (keyId) => this.revoke(keyId),
      () => void this.renew(),
    );
  }

  stop(): void {
    if (this.renewTimer !== undefined) clearInterval(this.renewTimer);
    this.stopWatch?.();
  }


  /** Tracks a request; the returned signal aborts on revocation (reason: the 401 to send). */
  add(requestId: string, keyId: string, lease: LeaseRefWire | null, controller: AbortHandle): void {
    this.byRequest.set(requestId, { keyId, lease, controller });
    // A revocation that arrived while this request's decision was on its way is not missed.
    if (this.recentlyRevoked.has(keyId)) controller.abort(new AuthenticationError('This API key has been revoked.'));
  }

  remove(requestId: string): void {
    this.byRequest.delete(requestId);
  }

  /** Cuts every request in flight with `reason` (what the client is sent: a stream's `event: error`). */
  abortAll(reason: GatewayError): void {
    for (const f of this.byRequest.values()) if (!f.controller.aborted) f.controller.abort(reason);
  }

  revoke(keyId: string): void {
    const now = Date.now();
    this.recentlyRevoked.set(keyId, now);
    for (const [id, at] of this.recentlyRevoked) if (now - at > 60_000) this.recentlyRevoked.delete(id);
    for (const f of this.byRequest.values()) {
      if (f.keyId === keyId && !f.controller.aborted) {
        f.controller.abort(new AuthenticationError('This API key has been revoked.'));
        this.onCut();
      }
    }
  }

  /** Extends the leases of the requests in flight, and cuts those whose keys were revoked meanwhile. */
  private async renew(): Promise<void> {
    const leases = [...this.byRequest.values()].flatMap((f) => (f.lease === null ? [] : [f.lease]));
    if (leases.length === 0) return;
    try {
      const ack = await this.policy.renewLeases(leases);
      if (ack.unknown_lease_ids.length > 0) this.log.warn({ count: ack.unknown_lease_ids.length }, 'leases expired before renewal');
      for (const keyId of ack.revoked_key_ids) this.revoke(keyId);
    } catch (err) {
      this.log.warn({ err }, 'lease renewal failed');
    }
  }
}
