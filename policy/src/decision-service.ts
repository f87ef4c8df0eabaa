import {
  QuotaExceededError,
  type AuthenticateResponse,
  type Residency,
  type Route,
  RateLimitError,
  ServiceUnavailableError,
  denialFromError,
  keyFormatError,
  newDecisionId,
  leaseIdFor,
  type DecideRequest,
  type DecisionWire,
  type Denial,
  type GatewayError,
  type KeyIdentity,
  type LeaseRefWire,
  type RenewLeasesAck,
  type Logger,
  type RateLimitPosition,
  type UsageAck,
  type UsageReport,
} from '@gateway/shared';
import { randomInt } from 'node:crypto';
import { SpanKind, type Context, type SpanOptions } from '@opentelemetry/api';
import { DB_OPERATION_NAME, DB_SYSTEM_NAME, inSpan } from '@gateway/shared';
import { setTimeout as sleep } from 'node:timers/promises';
import { billableUnits, billingPeriod, costUnits } from './billing.js';
import type { CatalogueRoute, ModelCatalogue } from './catalogue.js';
import type { AdmitRequest, CounterStore, CountOutcome, UsageCount, WindowPosition, WindowSpec } from './counters/counter-store.js';
import type { RowState } from './db/ledger-statements.js';
import type { LedgerWriter } from './db/ledger-writer.js';
import type { LedgerEntry } from './db/usage-ledger.js';
import {
  authenticate,
  checkMaxTokens,
  checkModelPermitted,
  checkSource,
  isError,
  resolveModel,
  routesInTier,
  servableRoutes,
} from './decision-rules.js';
import type { CachedKey, KeyCache } from './key-cache.js';
import type { LastUsedTracker } from './last-used.js';
import type { RouteCheck } from './residency/route-evidence.js';
import { routeOfReport } from './residency/reported-route.js';

export interface DecisionServiceDeps {
  keys: KeyCache;
  catalogue: ModelCatalogue;
  counters: CounterStore;
  ledger: LedgerWriter;
  lastUsed: LastUsedTracker;
  leaseTtlMs: number;
  log: Logger;
  now?: () => number;
  /** How long a concurrency refusal waits for releases in flight from other proxies before it stands (ms). */
  concurrencyRecheckMs?: number;
  /** Hears each usage row the first time it is written to the ledger (metrics). */
  onRecorded?: (entry: LedgerEntry) => void;
  /** Route verification against the platform (Bedrock); absent: the catalogue's routes are served as declared. */
  residency?: { check(model: string, tier: Residency, index: number, route: CatalogueRoute, nowMs: number): RouteCheck };
  /** 'redis': the counter store's steps are calls to Redis (CLIENT spans); else in-process (INTERNAL spans). */
  countersSystem?: 'redis' | 'memory';
}

/** The step spans of a traced decision or report (CONTRACT.md "Traces"); no attribute holds a key or a value. */
const KEY_LOOKUP_SPAN: SpanOptions = { kind: SpanKind.INTERNAL };
const LEDGER_SPAN: SpanOptions = { kind: SpanKind.INTERNAL };
const counterSpan = (system: 'redis' | 'memory'): SpanOptions =>
  system === 'redis' ? { kind: SpanKind.CLIENT, attributes: { [DB_SYSTEM_NAME]: 'redis', [DB_OPERATION_NAME]: 'EVALSHA' } } : { kind: SpanKind.INTERNAL };

/** Long enough for a release sent as another proxy's response ended to land, even on a busy machine. */
const CONCURRENCY_RECHECK_MS = 50;

/**
 * Authentication and IP check of any call; the key's entry, or the refusal (with the key's entry when the key
 * itself was good: an IP refusal comes after authentication, and its response is attested).
 */
export type CallerCheck = { ok: true; entry: CachedKey } | { ok: false; error: GatewayError; entry: CachedKey | null };

/** The decision of the policy service: the rules in order, then the counters in one atomic step. */
export class DecisionService {
  readonly now: () => number;
  private readonly concurrencyRecheckMs: number;
  private readonly counterSpan: SpanOptions;

  constructor(private readonly d: DecisionServiceDeps) {
    this.now = d.now ?? Date.now;
    this.counterSpan = counterSpan(d.countersSystem ?? 'memory');
    this.concurrencyRecheckMs = d.concurrencyRecheckMs ?? CONCURRENCY_RECHECK_MS;
  }

  /** `trace`, here and below: the context of the message's SERVER span (tracing.ts), parent of the step spans. */
  async checkCaller(apiKey: string, sourceIp: string, trace?: Context): Promise<CallerCheck> {
    // A malformed key is refused without a store lookup; a key not in memory is looked up before the rules run.
    const known = keyFormatError(apiKey) === undefined ? await inSpan('policy.key_lookup', KEY_LOOKUP_SPAN, trace, () => this.d.keys.lookup(apiKey)) : undefined;
    const entry = authenticate(apiKey, () => known, this.now());
    if (isError(entry)) return { ok: false, error: entry, entry: null };
    const ipError = checkSource(entry, sourceIp);
    if (ipError !== undefined) return { ok: false, error: ipError, entry };
    return { ok: true, entry };
  }

  async decide(req: DecideRequest, trace?: Context): Promise<DecisionWire> {
    const decision_id = newDecisionId();
    const nowMs = this.now();
    const catalogue_sha256 = this.d.catalogue.sha256;
    const caller = await this.checkCaller(req.caller.api_key, req.caller.source_ip, trace);
    if (!caller.ok) return { ...denyWire(decision_id, null, caller.error, caller.entry), catalogue_sha256 };
    const entry = caller.entry;
    const windows = windowSpecs(entry);
    const deny = (rate_limit: RateLimitPosition | null, error: GatewayError): DecisionWire =>
      ({ ...denyWire(decision_id, rate_limit, error, entry), catalogue_sha256 });

    // From here on every answer carries the window position (headers on every response past the IP check).
    const rejectWith = async (error: GatewayError): Promise<DecisionWire> => deny(toPosition(await this.peek(windows, nowMs)), error);

    const model = resolveModel(this.d.catalogue, req.model);
    if (isError(model)) return rejectWith(model);
    if (req.operation === 'CREATE_MESSAGE') {
      const tooMany = checkMaxTokens(model, req.max_tokens);
      if (tooMany !== undefined) return rejectWith(tooMany);
    }
    const notPermitted = checkModelPermitted(entry, model);
    if (notPermitted !== undefined) return rejectWith(notPermitted);
    const declared = routesInTier(this.d.catalogue, model, entry.residency);
    if (isError(declared)) return rejectWith(declared);
    // Never widened: each route is served only on its own evidence; one whose evidence does not hold is skipped,
    // and with none left the request is refused, never sent to another tier.
    const routes = servableRoutes(declared, (route, i) => this.d.residency?.check(model.id, entry.residency, i, route, nowMs));
    if (isError(routes)) return rejectWith(routes);

    const live = entry.record.environment === 'live';
    const holdsSlot = req.operation === 'CREATE_MESSAGE';
    // The slot a retried attempt (its first replica was lost) asks for is the one the first attempt took, if it did.
    const leaseId = holdsSlot ? leaseIdFor(req.attempt_id) : '';
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
      admitted = await inSpan('policy.counters.admit', this.counterSpan, trace, () => this.d.counters.admit(admit));
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
      return deny(null, new ServiceUnavailableError('The gateway cannot reach its counter store; please retry.'));
    }
    const position = toPosition(admitted.window);
    if (!admitted.ok) {
      if (admitted.reason === 'rpm') {
        return deny(position, new RateLimitError(
          `Rate limit exceeded: ${admitted.window.limit} requests per minute. Retry after the window resets.`,
          admitted.retryAfterSeconds,
        ));
      }
      if (admitted.reason === 'concurrency') {
        return deny(position, new RateLimitError(
          `Concurrency limit exceeded: at most ${entry.limits.concurrency} requests in flight at once.`,
          undefined,
          'concurrency',
        ));
      }
      return deny(position, new QuotaExceededError(
        entry.limits.overage_allowed
          ? 'Overage ceiling reached for this billing period; requests are refused until the next period.'
          : 'Token allowance used for this billing period and overage is not enabled.',
      ));
    }
    this.d.lastUsed.touch(entry.record.id, nowMs);
    return {
      decision_id,
      rate_limit: position,
      catalogue_sha256,
      outcome: 'allow',
      allow: {
        key: identity(entry),
        model: model.id,
        // The first route also in the single-route fields, for a proxy that predates `routes`.
        route: routes[0] as Route,
        routes,
        lease_id: leaseId,
        lease_expires_unix_ms: admitted.leaseExpiresMs,
        reserved_units: reserveUnits,
        // Without verification (a Messages-API upstream) the regions are the catalogue's declaration.
        evidence: (routes[0] as Route).evidence,
      },
    };
  }

  /**
   * The key and source address only; nothing is counted. Before a large body is read, and for a request the
   * proxy found invalid: it answers 400 with the window position, once the key passed these checks.
   */
  async authenticate(apiKey: string, sourceIp: string, trace?: Context): Promise<AuthenticateResponse> {
    const catalogue_sha256 = this.d.catalogue.sha256;
    const caller = await this.checkCaller(apiKey, sourceIp, trace);
    if (!caller.ok) return { rate_limit: null, catalogue_sha256, outcome: 'deny', deny: denial(caller.error, caller.entry) };
    const position = toPosition(await this.peek(windowSpecs(caller.entry), this.now()));
    return { rate_limit: position, catalogue_sha256, outcome: 'key', key: identity(caller.entry) };
  }

  /**
   * Count at release: frees the slot and counts the request's billable units into its period's used counter in one
   * atomic counter-store step, issued before anything this method awaits. On a proxy's ordered decision stream the
   * proxy's next decision reaches the counter store after it, so it sees both the free slot and the units, with or
   * without overage. The ledger row is handed to the ledger writer in the same turn (so a counter rebuilt from the
   * ledger from then on includes it, committed or still in the write window), and the report is acknowledged once
   * that row is committed. Then the two records are reconciled, exactly once per request id:
   * - the row was counted before its commit: the count is confirmed, and made again if another replica rebuilt
   *   the counter in between without the row;
   * - the counter was missing (lost, not yet rebuilt): it is rebuilt from the ledger, which holds the row, and the
   *   count is tried again (a rebuild that included the row uncounted has marked it, so that adds nothing);
   * - a count added in either case above (after the commit, its marker found missing) claims the row, and is taken
   *   back if the row is already held by another: a rebuild made while the row was marked counted includes its units
   *   but sets no marker for it (only uncounted rows get one), so such an add was a second count;
   * - this attempt added, but the ledger row was already counted by another attempt (a duplicate report whose
   *   marker had been lost): this attempt's add is taken back;
   * - otherwise the row is marked counted by whoever counted it.
   */
  async report(r: UsageReport, trace?: Context): Promise<UsageAck> {
    // Pure computations only before the settle: nothing may be awaited ahead of it.
    const units = billableUnits(r.usage);
    const live = r.environment === 'live';
    const finishedMs = r.finished_unix_ms > 0 ? r.finished_unix_ms : this.now();
    const account = this.d.keys.accountOf(r.account_id);
    const period = billingPeriod(finishedMs, account?.anchor_day ?? null);
    const usage: UsageCount | undefined = live && units > 0
      ? {
          period: { accountId: r.account_id, periodId: period.id, periodStartMs: period.startMs, periodEndMs: period.endMs },
          units,
          requestId: r.request_id,
          attempt: randomInt(2, 2 ** 47),
        }
      : undefined;
    const lease = r.lease_id === '' ? undefined : { scope: `${r.account_id}:${r.environment}`, leaseId: r.lease_id };
    // Both started in this turn, in this order (inSpan calls them at once): the settle ahead of the ledger write.
    const settled = inSpan('policy.counters.settle', this.counterSpan, trace, () => this.d.counters.settle(lease, usage, this.now()));
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
      ...routeOfReport(r),
    };
    const written = inSpan('policy.ledger.write', LEDGER_SPAN, trace, () => this.d.ledger.record(entry));
    // Both are awaited below; marked handled now in case the other throws first.
    settled.catch(() => undefined);
    written.catch(() => undefined);
    let row: RowState;
    try {
      row = await written;
    } catch (err) {
      throw new ServiceUnavailableError('The gateway could not write its usage ledger; the report will be retried.', { cause: err });
    }
    if (row.inserted) this.d.onRecorded?.(entry);
    try {
      const outcome = await settled;
      if (usage !== undefined) await this.reconcile(usage, outcome, row);
    } catch (err) {
      // The row is in the ledger; counting is retried with the report (the proxy keeps it until it is taken).
      throw new ServiceUnavailableError('The gateway cannot reach its counter store; the report will be retried.', { cause: err });
    }
    return { recorded: row.inserted };
  }

  /** Brings the counter and the ledger row of one report into agreement (see report()). */
  private async reconcile(usage: UsageCount, settled: CountOutcome, row: RowState): Promise<void> {
    let outcome = settled;
    if (row.counted !== 0) {
      if (outcome.kind === 'added' && row.counted !== usage.attempt) await this.d.counters.uncount(usage);
      return;
    }
    // Counted before the row was committed: another replica's rebuild in between could not see the row (it was in
    // this replica's write window), and lost the count. Confirmed now that the row is committed (every later
    // rebuild includes it); counted again if it was lost.
    if (outcome.kind !== 'missing') outcome = await this.d.counters.confirm(usage);
    if (outcome.kind === 'missing') {
      // Rebuilding reads the ledger, which holds this row now: a rebuild that includes it uncounted marks it as its
      // own; one that finds it counted (by a rebuild since lost, or another attempt) sets no marker (see below).
      await this.d.counters.used(usage.period);
      outcome = await this.d.counters.settle(undefined, usage, this.now());
      if (outcome.kind === 'missing') throw new Error('the used counter is missing again right after its rebuild');
    }
    if (outcome.kind === 'added') {
      // Added after the row was committed, on a marker found missing. A counter rebuilt while the row was already
      // marked counted (by a rebuild since flushed, or by a duplicate report) includes its units but carries no
      // marker for it, so this add may be its second count: the row is claimed, and the add taken back if another
      // holds it. Awaited: the acknowledgement follows the counter's agreement with the ledger.
      const holder = await this.d.ledger.markCounted(usage.requestId, usage.attempt);
      if (holder !== usage.attempt) await this.d.counters.uncount(usage);
      return;
    }
    // Not awaited: the row is durable already, and a mark lost with the process changes nothing (a rebuild takes
    // the row as uncounted and marks it; a replay finds its marker). The acknowledgement waits one window less.
    const by = outcome.kind === 'already' ? outcome.holder : 0;
    if (by !== 0) {
      this.d.ledger.markCounted(usage.requestId, by).catch((err: unknown) => this.d.log.warn({ err, request_id: usage.requestId }, 'marking a ledger row counted failed'));
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

  /** The live allowance counter's figure for the key's account this period; undefined when it cannot be read. */
  async countedUnits(entry: CachedKey): Promise<number | undefined> {
    if (entry.record.environment !== 'live') return undefined;
    const period = billingPeriod(this.now(), entry.limits.anchor_day);
    try {
      return await this.d.counters.used({ accountId: entry.account.id, periodId: period.id, periodStartMs: period.startMs, periodEndMs: period.endMs });
    } catch {
      return undefined;
    }
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

/** A refusal on the wire; it names the key when the key passed authentication (the proxy attests the response). */
function denial(error: GatewayError, entry: CachedKey | null): Denial {
  return { ...(denialFromError(error) as Omit<Denial, 'key'>), key: entry === null ? null : identity(entry) };
}

function denyWire(decision_id: string, rate_limit: RateLimitPosition | null, error: GatewayError, entry: CachedKey | null): DecisionWire {
  return { decision_id, rate_limit, catalogue_sha256: '', outcome: 'deny', deny: denial(error, entry) };
}
