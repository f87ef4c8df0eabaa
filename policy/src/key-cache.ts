import { IpAllowlist, ServiceUnavailableError, hashApiKey, type Logger, type Residency } from '@gateway/shared';
import type { KeyStore } from './db/gateway-store.js';
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
 * Keys by hash, kept current by following the numbered change log that gatewayctl, the dashboard and every
 * other replica append to: read in full at start, then polled every `pollMs` for entries past the last one seen
 * (so a revocation made anywhere bites within one poll, and a poll that fails, or a database that was
 * unreachable for a while, loses nothing: the next successful read starts from the same number). Decisions read
 * only memory; a key created since the last poll is found by one indexed lookup, and then kept.
 */
export class KeyCache {
  private byHash = new Map<string, CachedKey>();
  private byKeyId = new Map<string, CachedKey>();
  private accounts = new Map<string, Account>();
  private lastSeq = 0;
  private loaded = false;
  /** Counts full reloads, so a lookup that raced one does not put back what the reload replaced. */
  private generation = 0;
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  private readonly revokedListeners = new Set<(keyId: string) => void>();

  constructor(
    private readonly store: KeyStore,
    private readonly log: Logger,
  ) {}

  async start(pollMs: number): Promise<void> {
    try {
      this.lastSeq = await this.store.lastChangeSeq();
      await this.reloadAll();
      this.loaded = true;
    } catch (err) {
      // Keys are still found one by one on lookup; the poll retries the full load until it succeeds.
      this.log.error({ err }, 'loading the key cache failed');
    }
    this.timer = setInterval(() => void this.poll(), pollMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
  }

  onRevoked(listener: (keyId: string) => void): () => void {
    this.revokedListeners.add(listener);
    return () => this.revokedListeners.delete(listener);
  }

  /** Keys held in the cache. */
  get size(): number {
    return this.byHash.size;
  }

  /** The key for a well-formed key string, or undefined when no such key exists; rejects when the store cannot say. */
  async lookup(apiKey: string): Promise<CachedKey | undefined> {
    const hash = hashApiKey(apiKey);
    const hit = this.byHash.get(hash);
    if (hit !== undefined) return hit;
    const generation = this.generation;
    try {
      const record = await this.store.findKeyByHash(hash);
      if (record === undefined) return undefined;
      const entry = await this.resolve(record, new Map(), new Map());
      if (generation !== this.generation) {
        // A reload finished while this lookup waited. Its copy is kept and this one is not: this one may predate
        // a revocation the reload saw, and whatever the reload missed is still ahead of its change number.
        return this.byHash.get(hash) ?? entry;
      }
      if (entry !== undefined) this.remember(entry);
      return entry;
    } catch (err) {
      // Not "no such key": the store could not say. Refused as unavailable (503, retry), never as a bad key (401),
      // which would tell a client with a valid key to give up.
      this.log.error({ err }, 'key lookup failed');
      throw new ServiceUnavailableError('The gateway cannot reach its key store; please retry.', { cause: err });
    }
  }

  /** A key by id, from memory (for renewals: is it still valid?). Every key a decision used is held. */
  byId(keyId: string): CachedKey | undefined {
    return this.byKeyId.get(keyId);
  }

  /** An account from memory: every account is loaded with the keys, and any a looked-up key belongs to. */
  accountOf(accountId: string): Account | undefined {
    return this.accounts.get(accountId);
  }

  /** Looks for changes now (the timer calls this; tests may too). One poll at a time. */
  poll(): Promise<void> {
    this.polling ??= this.readChanges().finally(() => (this.polling = undefined));
    return this.polling;
  }

  private async readChanges(): Promise<void> {
    let changes;
    try {
      changes = await this.store.changesSince(this.lastSeq);
      if (changes.length === 0 && this.loaded) return;
      await this.reloadAll();
      this.loaded = true;
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

  private remember(entry: CachedKey): void {
    this.byHash.set(entry.record.key_hash, entry);
    this.byKeyId.set(entry.record.id, entry);
    this.accounts.set(entry.account.id, entry.account);
  }

  private async reloadAll(): Promise<void> {
    const [planList, accountList, records] = await Promise.all([this.store.listPlans(), this.store.listAccounts(), this.store.listKeys()]);
    const plans = new Map(planList.map((p) => [p.name, p]));
    const accounts = new Map(accountList.map((a) => [a.id, a]));
    const next = new Map<string, CachedKey>();
    for (const record of records) {
      try {
        const entry = await this.resolve(record, plans, accounts);
        if (entry !== undefined) next.set(record.key_hash, entry);
      } catch (err) {
        // One bad row must not take every key down; this key is simply not admitted.
        this.log.error({ err, key_id: record.id }, 'skipping a key that cannot be loaded');
      }
    }
    this.generation += 1;
    this.accounts = accounts;
    this.byHash = next;
    this.byKeyId = new Map([...next.values()].map((e) => [e.record.id, e]));
  }

  private async resolve(record: KeyRecord, plans: Map<string, Plan>, accounts: Map<string, Account>): Promise<CachedKey | undefined> {
    const account = accounts.get(record.account_id) ?? (await this.store.getAccount(record.account_id));
    if (account === undefined) return undefined;
    const plan = plans.get(account.plan) ?? (await this.store.getPlan(account.plan));
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
