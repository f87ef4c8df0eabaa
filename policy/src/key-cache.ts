import { IpAllowlist, hashApiKey, type Logger, type Residency } from '@gateway/shared';
import type { AdminStore } from './db/admin-store.js';
import { effectiveLimits, type Account, type EffectiveLimits, type KeyRecord, type Plan } from './db/records.js';

/** What a decision needs about a key, resolved once and kept in memory. */
export interface CachedKey {
  record: KeyRecord;
  /**
   * The tier the key is held to: its own, narrowed to its plan's when the plan permits less (an account moved
   * to a uk-only plan keeps its eu keys, but they may no longer leave London). Never wider than either.
   */
  residency: Residency;
  account: Account;
  limits: EffectiveLimits;
  allowlist: IpAllowlist | null;
  expiresAtMs: number | null;
}

/**
 * Keys by hash, kept current by polling the change log that gatewayctl and the dashboard write to, so a
 * revocation made from another process bites within one poll. A key created since the last poll is found by a
 * single indexed lookup.
 */
export class KeyCache {
  private byHash = new Map<string, CachedKey>();
  private byKeyId = new Map<string, CachedKey>();
  private accounts = new Map<string, Account>();
  private lastSeq = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly revokedListeners = new Set<(keyId: string) => void>();

  constructor(
    private readonly store: AdminStore,
    private readonly log: Logger,
  ) {}

  start(pollMs: number): void {
    this.lastSeq = this.store.lastChangeSeq();
    try {
      this.reloadAll();
    } catch (err) {
      // Keys are still found one by one on lookup; the next change retries the full load.
      this.log.error({ err }, 'loading the key cache failed');
    }
    this.timer = setInterval(() => this.poll(), pollMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
  }

  onRevoked(listener: (keyId: string) => void): () => void {
    this.revokedListeners.add(listener);
    return () => this.revokedListeners.delete(listener);
  }

  /** The key for a well-formed key string, or undefined when no such key exists. */
  /** Keys held in the cache. */
  get size(): number {
    return this.byHash.size;
  }

  lookup(apiKey: string): CachedKey | undefined {
    const hash = hashApiKey(apiKey);
    const hit = this.byHash.get(hash);
    if (hit !== undefined) return hit;
    try {
      const record = this.store.findKeyByHash(hash);
      if (record === undefined) return undefined;
      const entry = this.resolve(record, new Map(), new Map());
      if (entry !== undefined) this.byHash.set(hash, entry);
      return entry;
    } catch (err) {
      this.log.error({ err }, 'key lookup failed');
      return undefined;
    }
  }

  /** A key by id (for renewals: is it still valid?). */
  byId(keyId: string): CachedKey | undefined {
    const hit = this.byKeyId.get(keyId);
    if (hit !== undefined) return hit;
    try {
      const record = this.store.getKey(keyId);
      return record === undefined ? undefined : this.resolve(record, new Map(), new Map());
    } catch {
      return undefined;
    }
  }

  accountOf(accountId: string): Account | undefined {
    return this.accounts.get(accountId) ?? this.store.getAccount(accountId);
  }

  /** Looks for changes now (the poll calls this; tests and the CLI path may too). */
  poll(): void {
    let changes;
    try {
      changes = this.store.changesSince(this.lastSeq);
      if (changes.length === 0) return;
      this.reloadAll();
    } catch (err) {
      // Nothing is skipped: the same changes are read again on the next poll.
      this.log.error({ err }, 'key change poll failed');
      return;
    }
    this.lastSeq = changes[changes.length - 1]?.seq ?? this.lastSeq;
    for (const c of changes) {
      if (c.entity === 'key' && c.change === 'revoked') {
        for (const l of this.revokedListeners) l(c.entity_id);
      }
    }
  }

  private reloadAll(): void {
    const plans = new Map(this.store.listPlans().map((p) => [p.name, p]));
    const accounts = new Map(this.store.listAccounts().map((a) => [a.id, a]));
    this.accounts = accounts;
    const next = new Map<string, CachedKey>();
    for (const record of this.store.listKeys()) {
      try {
        const entry = this.resolve(record, plans, accounts);
        if (entry !== undefined) next.set(record.key_hash, entry);
      } catch (err) {
        // One bad row must not take every key down; this key is simply not admitted.
        this.log.error({ err, key_id: record.id }, 'skipping a key that cannot be loaded');
      }
    }
    this.byHash = next;
    this.byKeyId = new Map([...next.values()].map((e) => [e.record.id, e]));
  }

  private resolve(record: KeyRecord, plans: Map<string, Plan>, accounts: Map<string, Account>): CachedKey | undefined {
    const account = accounts.get(record.account_id) ?? this.store.getAccount(record.account_id);
    if (account === undefined) return undefined;
    const plan = plans.get(account.plan) ?? this.store.getPlan(account.plan);
    if (plan === undefined) return undefined;
    return {
      record,
      residency: record.residency === 'eu' && plan.residency === 'uk' ? 'uk' : record.residency,
      account,
      limits: effectiveLimits(plan, account),
      allowlist: record.allowed_ips === null ? null : new IpAllowlist(record.allowed_ips),
      // An expiry that does not parse is taken as already past (fail closed), never as no expiry.
      expiresAtMs: record.expires_at === null ? null : Number.isNaN(Date.parse(record.expires_at)) ? 0 : Date.parse(record.expires_at),
    };
  }
}
