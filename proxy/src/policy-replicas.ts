import { createHash } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import type * as grpc from '@grpc/grpc-js';
import type { Logger, PolicyTarget } from '@gateway/shared';
import type { PolicySession } from './policy-session.js';

/** One policy replica as the proxy holds it: its gRPC channel and its decision stream. */
export interface Replica {
  readonly address: string;
  readonly client: grpc.Client;
  readonly session: PolicySession;
}

/** How often a DNS target is resolved again (CONTRACT.md: at least every 30 s). */
const RESOLVE_EVERY_MS = 30_000;

/**
 * The policy replicas a proxy talks to (POLICY_TARGET): one channel and one decision stream each. A key's calls go
 * to one replica chosen by rendezvous hashing over the replicas that can decide now, so one client's reports and
 * decisions share one ordered stream, and when a replica leaves only its keys move. A draining replica is chosen
 * only when no other can decide, and its stream is ended once it carries nothing, so it can stop at once.
 */
export class PolicyReplicas {
  private readonly replicas = new Map<string, Replica>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly target: PolicyTarget,
    private readonly connect: (address: string) => Replica,
    private readonly log: Logger,
    /** Hears each replica as it is added (the client wires its watchers and catch-up to it). */
    private readonly onAdded: (replica: Replica) => void,
    private readonly resolve: (host: string) => Promise<string[]> = resolveAll,
    private readonly resolveEveryMs = RESOLVE_EVERY_MS,
  ) {}

  /** Connects to the target's replicas (a DNS target now and every 30 s). */
  async start(): Promise<void> {
    if (this.target.kind === 'list') {
      this.update(this.target.addresses);
      return;
    }
    const { host, port } = this.target;
    const refresh = async (): Promise<void> => {
      try {
        const ips = await this.resolve(host);
        if (ips.length > 0) this.update(ips.map((ip) => (ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`)));
        else this.log.warn({ host }, 'policy target resolved to no address; keeping the replicas known');
      } catch (err) {
        // Keep what is known: a DNS hiccup must not drop healthy replicas.
        this.log.warn({ err, host }, 'resolving the policy target failed; keeping the replicas known');
      }
    };
    await refresh();
    this.timer = setInterval(() => void refresh(), this.resolveEveryMs);
    this.timer.unref();
  }

  /**
   * The replicas for a key's calls, best first: those that can decide now and are not draining, by rendezvous
   * score; then draining ones that can still decide; then the rest (a call to those fails at once, closed).
   */
  forKey(pin: string): Replica[] {
    const all = [...this.replicas.values()];
    if (all.length <= 1) return all;
    const rank = (r: Replica): number => (!r.session.usable ? 2 : r.session.draining ? 1 : 0);
    const scored = all.map((r) => ({ r, rank: rank(r), score: rendezvousScore(pin, r.address) }));
    scored.sort((a, b) => a.rank - b.rank || b.score - a.score);
    return scored.map((s) => s.r);
  }

  /** Every replica known now. */
  all(): Replica[] {
    return [...this.replicas.values()];
  }

  /** Whether a decision can be made now: some replica can decide and is not draining. */
  canDecide(): boolean {
    for (const r of this.replicas.values()) if (r.session.usable && !r.session.draining) return true;
    return false;
  }

  close(): void {
    this.closed = true;
    if (this.timer !== undefined) clearInterval(this.timer);
    for (const r of this.replicas.values()) drop(r);
    this.replicas.clear();
  }

  private update(addresses: readonly string[]): void {
    if (this.closed) return;
    const wanted = new Set(addresses);
    for (const [address, r] of this.replicas) {
      if (wanted.has(address)) continue;
      // Gone from the target: what waits on it fails closed (a decision is retried once elsewhere, a report spooled).
      this.log.info({ address }, 'policy replica left the target');
      this.replicas.delete(address);
      drop(r);
    }
    for (const address of wanted) {
      if (this.replicas.has(address)) continue;
      const r = this.connect(address);
      r.session.onChange = () => this.settleDraining();
      this.replicas.set(address, r);
      this.onAdded(r);
    }
  }

  /** Ends the streams of draining replicas that carry nothing, once another replica can take their keys. */
  private settleDraining(): void {
    if (!this.canDecide()) return;
    for (const r of this.replicas.values()) if (r.session.draining) r.session.endIfIdle();
  }
}

function drop(r: Replica): void {
  r.session.close();
  r.client.close();
}

/** Highest wins; the key's own ranking of the replicas, stable as others come and go. */
function rendezvousScore(pin: string, address: string): number {
  return createHash('sha256').update(pin).update('\0').update(address).digest().readUIntBE(0, 6);
}

async function resolveAll(host: string): Promise<string[]> {
  return (await lookup(host, { all: true })).map((a) => a.address);
}
