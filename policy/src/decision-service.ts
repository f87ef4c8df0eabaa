import {
  QuotaExceededError,
  type AuthenticateResponse,
  RateLimitError,
  ServiceUnavailableError,
  denialFromError,
  keyFormatError,
  newDecisionId,
  newLeaseId,
  type DecideRequest,
  type DecisionWire,
  type GatewayError,
  type KeyIdentity,
  type LeaseRefWire,
  type RenewLeasesAck,
  type Logger,
  type RateLimitPosition,
  type UsageAck,
  type UsageReport,
} from '@gateway/shared';
import { setTimeout as sleep } from 'node:timers/promises';
import { billableUnits, billingPeriod, costUnits, type BillingPeriod } from './billing.js';
import type { ModelCatalogue } from './catalogue.js';
import type { AdmitRequest, CounterStore, WindowPosition, WindowSpec } from './counters/counter-store.js';
import { awaitsCounting, type LedgerEntry, type UsageLedger } from './db/usage-ledger.js';
import {
  authenticate,
  checkMaxTokens,
  checkModelPermitted,
  checkSource,
  isError,
  resolveModel,
  routeInTier,
} from './decision-rules.js';
import type { CachedKey, KeyCache } from './key-cache.js';
import type { LastUsedTracker } from './last-used.js';

export interface DecisionServiceDeps {
  keys: KeyCache;
  catalogue: ModelCatalogue;
  counters: CounterStore;
  ledger: UsageLedger;
  lastUsed: LastUsedTracker;
  leaseTtlMs: number;
  log: Logger;
  now?: () => number;
  /** How long a concurrency refusal waits for releases in flight from other proxies before it stands (ms). */
  concurrencyRecheckMs?: number;
  /** Hears each usage row the first time it is written to the ledger (metrics). */
  onRecorded?: (entry: LedgerEntry) => void;
}

/** Long enough for a release sent as another proxy's response ended to land, even on a busy machine. */
const CONCURRENCY_RECHECK_MS = 50;

/** Authentication and IP check of any call; the key's entry, or the refusal. */
export type CallerCheck = { ok: true; entry: CachedKey } | { ok: false; error: GatewayError };

/** The decision of the policy service: the rules in order, then the counters in one atomic step. */
export class DecisionService {
  readonly now: () => number;
  private readonly concurrencyRecheckMs: number;

  constructor(private readonly d: DecisionServiceDeps) {
    this.now = d.now ?? Date.now;
    this.concurrencyRecheckMs = d.concurrencyRecheckMs ?? CONCURRENCY_RECHECK_MS;
  }

  async checkCaller(apiKey: string, sourceIp: string): Promise<CallerCheck> {
    // A malformed key is refused without a store lookup; a key not in memory is looked up before the rules run.
    const known = keyFormatError(apiKey) === undefined ? await this.d.keys.lookup(apiKey) : undefined;
    const entry = authenticate(apiKey, () => known, this.now());
    if (isError(entry)) return { ok: false, error: entry };
    const ipError = checkSource(entry, sourceIp);
    if (ipError !== undefined) return { ok: false, error: ipError };
    return { ok: true, entry };
  }

  async decide(req: DecideRequest): Promise<DecisionWire> {
    const decision_id = newDecisionId();
    const nowMs = this.now();
    const caller = await this.checkCaller(req.caller.api_key, req.caller.source_ip);
    if (!caller.ok) return deny(decision_id, null, caller.error);
    const entry = caller.entry;
    const windows = windowSpecs(entry);

    // From here on every answer carries the window position (headers on every response past the IP check).
    const rejectWith = async (error: GatewayError): Promise<DecisionWire> =>
      deny(decision_id, toPosition(await this.peek(windows, nowMs)), error);

    const model = resolveModel(this.d.catalogue, req.model);
    if (isError(model)) return rejectWith(model);
    if (req.operation === 'CREATE_MESSAGE') {
      const tooMany = checkMaxTokens(model, req.max_tokens);
      if (tooMany !== undefined) return rejectWith(tooMany);
    }
    const notPermitted = checkModelPermitted(entry, model);
    if (notPermitted !== undefined) return rejectWith(notPermitted);
    const route = routeInTier(this.d.catalogue, model, entry.residency);
    if (isError(route)) return rejectWith(route);

    const live = entry.record.environment === 'live';
    const holdsSlot = req.operation === 'CREATE_MESSAGE';
    const leaseId = holdsSlot ? newLeaseId() : '';
    const period = billingPeriod(nowMs, entry.limits.anchor_day);
    const reserveUnits = live && holdsSlot && entry.limits.overage_allowed ? req.input_tokens_estimate + req.max_tokens : 0;
    let admitted;
    try {
      const admit: AdmitRequest = {
        nowMs,
        windows,
        ...(holdsSlot
          ? { concurrency: { scope: slotScope(entry), limit: entry.limits.concurrency, leaseId, ttlMs: this.d.leaseTtlMs } }
          : {}),
        ...(live && holdsSlot
          ? {
              allowance: {
                accountId: entry.account.id,
                periodId: period.id,
                periodStartMs: period.startMs,
                periodEndMs: period.endMs,
                allowance: entry.limits.allowance,
                overageAllowed: entry.limits.overage_allowed,
                ceiling: entry.limits.overage_ceiling,
                reserveUnits,
              },
            }
          : {}),
      };
      admitted = await this.d.counters.admit(admit);
      if (!admitted.ok && admitted.reason === 'concurrency' && this.concurrencyRecheckMs > 0) {
        // A proxy's own releases reach this service ahead of its next decision (its stream is ordered), but a
        // client whose next request lands on another proxy can outrun the release of its last one. A full slot
        // pool is therefore checked once more after a short grace before it is refused (refusals count nothing,
        // so the second admit is as if the first never happened).
        await sleep(this.concurrencyRecheckMs);
        admitted = await this.d.counters.admit({ ...admit, nowMs: this.now() });
      }
    } catch (err) {
      this.d.log.error({ err, decision_id }, 'counter store unavailable');
      return deny(decision_id, null, new ServiceUnavailableError('The gateway cannot reach its counter store; please retry.'));
    }
    const position = toPosition(admitted.window);
    if (!admitted.ok) {
      if (admitted.reason === 'rpm') {
        return deny(decision_id, position, new RateLimitError(
          `Rate limit exceeded: ${admitted.window.limit} requests per minute. Retry after the window resets.`,
          admitted.retryAfterSeconds,
        ));
      }
      if (admitted.reason === 'concurrency') {
        return deny(decision_id, position, new RateLimitError(
          `Concurrency limit exceeded: at most ${entry.limits.concurrency} requests in flight at once.`,
          undefined,
          'concurrency',
        ));
      }
      return deny(decision_id, position, new QuotaExceededError(
        entry.limits.overage_allowed
          ? 'Overage ceiling reached for this billing period; requests are refused until the next period.'
          : 'Token allowance used for this billing period and overage is not enabled.',
      ));
    }
    this.d.lastUsed.touch(entry.record.id, nowMs);
    return {
      decision_id,
      rate_limit: position,
      outcome: 'allow',
      allow: {
        key: identity(entry),
        model: model.id,
        route,
        lease_id: leaseId,
        lease_expires_unix_ms: admitted.leaseExpiresMs,
        reserved_units: reserveUnits,
      },
    };
  }

  /**
   * The key and source address only; nothing is counted. Before a large body is read, and for a request the
   * proxy found invalid: it answers 400 with the window position, once the key passed these checks.
   */
  async authenticate(apiKey: string, sourceIp: string): Promise<AuthenticateResponse> {
    const caller = await this.checkCaller(apiKey, sourceIp);
    if (!caller.ok) return { rate_limit: null, outcome: 'deny', deny: denialFromError(caller.error) as AuthenticateResponse['deny'] };
    const position = toPosition(await this.peek(windowSpecs(caller.entry), this.now()));
    return { rate_limit: position, outcome: 'key', key: identity(caller.entry) };
  }

  /**
   * Frees the slot, writes the request's usage once (by request id) and counts it into the allowance once.
   * The release is issued first, before anything this method awaits: on a proxy's ordered decision stream,
   * the proxy's next decision then reaches the counter store after it, so a client that starts its next
   * request at once never finds its own finished request still holding the slot.
   * Settle, then count: the release does not drop an overage reservation but settles it to the real units (in
   * the period the request finished in), and admissions keep counting it until addUsed moves those units into
   * the used counter and removes it in one atomic step. Dropping it at release would leave a gap (the ledger
   * window, a Redis round trip, a retried report) in which an admission saw neither figure and could pass
   * the ceiling. Should addUsed never succeed, the settled reservation lapses with the lease's expiry.
   * The ledger write and the counter update are two steps: a row whose counter update failed stays marked
   * uncounted, and the retried report (the proxy retries until it is taken) counts it then.
   */
  async report(r: UsageReport): Promise<UsageAck> {
    // Pure computations only before the release: nothing may be awaited ahead of it.
    const units = billableUnits(r.usage);
    const live = r.environment === 'live';
    const finishedMs = r.finished_unix_ms > 0 ? r.finished_unix_ms : this.now();
    const account = this.d.keys.accountOf(r.account_id);
    const period = billingPeriod(finishedMs, account?.anchor_day ?? null);
    const released = r.lease_id === ''
      ? Promise.resolve()
      : this.d.counters.release(
          { scope: `${r.account_id}:${r.environment}`, leaseId: r.lease_id },
          this.now(),
          { units, periodId: period.id },
        );
    // Awaited below; marked handled now in case the ledger write throws first.
    released.catch(() => undefined);
    const model = this.d.catalogue.resolve(r.model);
    if (model === undefined) {
      // A model since removed from the catalogue: the usage is still recorded (never lost), priced at 0.
      this.d.log.error({ model: r.model, request_id: r.request_id }, 'usage report for a model not in the catalogue');
    }
    const entry: LedgerEntry = {
      request_id: r.request_id,
      account_id: r.account_id,
      key_id: r.key_id,
      environment: r.environment,
      model: model?.id ?? r.model,
      input_tokens: r.usage.input_tokens,
      output_tokens: r.usage.output_tokens,
      cache_creation_input_tokens: r.usage.cache_creation_input_tokens,
      cache_read_input_tokens: r.usage.cache_read_input_tokens,
      billable_units: units,
      cost_units: live && model !== undefined ? costUnits(r.usage, model.pricing_gbp_per_million) : 0,
      outcome: r.outcome,
      finished_at_ms: finishedMs,
      period_start_ms: period.startMs,
    };
    const recorded = await this.d.ledger.recordSoon(entry);
    if (recorded) this.d.onRecorded?.(entry);
    try {
      await released;
      // A row written just now is known without reading it back; a replayed report looks its row up.
      if (!recorded) await this.countIntoAllowance(r.request_id, r.lease_id, period);
      else if (awaitsCounting(entry)) await this.countIntoAllowance(r.request_id, r.lease_id, period, entry);
    } catch (err) {
      // The row is in the ledger; the counter step is retried with the report (the proxy keeps it until taken).
      throw new ServiceUnavailableError('The gateway cannot reach its counter store; the report will be retried.', { cause: err });
    }
    return { recorded };
  }

  private readonly counting = new Set<string>();

  /**
   * Adds a ledger row's units to the allowance counter if they are not in it yet, and with them removes the
   * reservation the lease's release settled to those units. A row already counted (a replay, or one included
   * by a rebuild from the ledger) is not sent again; a settled reservation left behind then (its first
   * addUsed failed, then a rebuild counted the row) is held until the lease's expiry: counted twice for that
   * while, which only refuses early (fail closed).
   */
  private async countIntoAllowance(
    requestId: string,
    leaseId: string,
    period: BillingPeriod,
    fresh?: { account_id: string; billable_units: number },
  ): Promise<void> {
    // A retry arriving while the first report is still counting must not count again.
    if (this.counting.has(requestId)) return;
    const row = fresh ?? this.d.ledger.uncountedUsage(requestId);
    if (row === undefined) return;
    this.counting.add(requestId);
    try {
      await this.d.counters.addUsed(
        { accountId: row.account_id, periodId: period.id, periodStartMs: period.startMs, periodEndMs: period.endMs },
        row.billable_units,
        requestId,
        leaseId === '' ? undefined : leaseId,
      );
      await this.d.ledger.markCountedSoon(requestId);
    } finally {
      this.counting.delete(requestId);
    }
  }

  async renew(leases: LeaseRefWire[]): Promise<RenewLeasesAck> {
    const now = this.now();
    const unknown = await this.d.counters.renew(
      leases.map((l) => ({ scope: `${l.account_id}:${l.environment}`, leaseId: l.lease_id })),
      this.d.leaseTtlMs,
      now,
    );
    const revoked = new Set<string>();
    for (const l of leases) {
      // Only a key known to be revoked or expired is reported; a failed lookup is not a revocation.
      const entry = this.d.keys.byId(l.key_id);
      if (entry !== undefined && (entry.record.revoked_at !== null || (entry.expiresAtMs !== null && now >= entry.expiresAtMs))) revoked.add(l.key_id);
    }
    return { unknown_lease_ids: unknown, revoked_key_ids: [...revoked] };
  }

  async windowPosition(entry: CachedKey): Promise<RateLimitPosition | null> {
    return toPosition(await this.peek(windowSpecs(entry), this.now()));
  }

  /** Counts one request in the key's windows without a slot (GET /v1/models); the refusal when full. */
  async countRequest(entry: CachedKey): Promise<{ position: RateLimitPosition | null; error?: GatewayError }> {
    const nowMs = this.now();
    try {
      const admitted = await this.d.counters.admit({ nowMs, windows: windowSpecs(entry) });
      if (!admitted.ok) {
        return {
          position: toPosition(admitted.window),
          error: new RateLimitError(`Rate limit exceeded: ${admitted.window.limit} requests per minute.`, admitted.retryAfterSeconds),
        };
      }
      this.d.lastUsed.touch(entry.record.id, nowMs);
      return { position: toPosition(admitted.window) };
    } catch (err) {
      this.d.log.error({ err }, 'counter store unavailable');
      return { position: null, error: new ServiceUnavailableError('The gateway cannot reach its counter store; please retry.') };
    }
  }

  private async peek(windows: WindowSpec[], nowMs: number): Promise<WindowPosition | null> {
    try {
      return await this.d.counters.peekWindows(windows, nowMs);
    } catch {
      return null;
    }
  }
}

/** Test traffic has windows and slots of its own per account, so it never eats live capacity. */
export function slotScope(entry: CachedKey): string {
  return `${entry.account.id}:${entry.record.environment}`;
}

export function windowSpecs(entry: CachedKey): WindowSpec[] {
  const windows: WindowSpec[] = [{ scope: `${slotScope(entry)}:rpm`, limit: entry.limits.requests_per_minute }];
  const cap = entry.record.requests_per_minute;
  if (cap !== null && cap < entry.limits.requests_per_minute) windows.push({ scope: `${slotScope(entry)}:key:${entry.record.id}:rpm`, limit: cap });
  return windows;
}

function identity(entry: CachedKey): KeyIdentity {
  return {
    key_id: entry.record.id,
    account_id: entry.account.id,
    environment: entry.record.environment,
    residency: entry.residency,
    privacy_mode: entry.record.privacy_mode,
  };
}

function toPosition(w: WindowPosition | null): RateLimitPosition | null {
  return w === null ? null : { limit: w.limit, remaining: w.remaining, reset_unix: w.resetUnix };
}

function deny(decision_id: string, rate_limit: RateLimitPosition | null, error: GatewayError): DecisionWire {
  return { decision_id, rate_limit, outcome: 'deny', deny: denialFromError(error) as DecisionWire['deny'] };
}
