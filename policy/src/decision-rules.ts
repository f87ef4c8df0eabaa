import {
  AuthenticationError,
  InvalidRequestError,
  NotFoundError,
  PermissionDeniedError,
  ResidencyUnavailableError,
  keyFormatError,
  type GatewayError,
  type Residency,
  type Route,
  type RouteEvidence,
} from '@gateway/shared';
import type { CatalogueModel, CatalogueRoute, ModelCatalogue } from './catalogue.js';
import type { RouteCheck } from './residency/route-evidence.js';
import type { CachedKey } from './key-cache.js';

/**
 * The checks of a decision as pure functions, in the order CONTRACT.md fixes. Each returns the error that
 * refuses the request, or what the next step needs. No I/O: the decision service supplies lookups and time.
 */

export function authenticate(
  apiKey: string,
  lookup: (apiKey: string) => CachedKey | undefined,
  nowMs: number,
): CachedKey | GatewayError {
  const formatError = keyFormatError(apiKey);
  if (formatError !== undefined) return formatError;
  const entry = lookup(apiKey);
  if (entry === undefined) return new AuthenticationError('Invalid API key.');
  if (entry.record.revoked_at !== null) return new AuthenticationError('This API key has been revoked.');
  if (entry.expiresAtMs !== null && nowMs >= entry.expiresAtMs) return new AuthenticationError('This API key has expired.');
  return entry;
}

/** A source outside allowed_ips gets the same 403 as a model the key may not call. */
export function checkSource(entry: CachedKey, sourceIp: string): GatewayError | undefined {
  if (entry.allowlist === null) return undefined;
  return entry.allowlist.allows(sourceIp) ? undefined : new PermissionDeniedError('ip');
}

export function resolveModel(catalogue: ModelCatalogue, model: string): CatalogueModel | GatewayError {
  const found = catalogue.resolve(model);
  return found ?? new NotFoundError(`model: ${model}`);
}

export function checkMaxTokens(model: CatalogueModel, maxTokens: number): GatewayError | undefined {
  if (maxTokens <= model.max_output_tokens) return undefined;
  return new InvalidRequestError(
    `max_tokens: ${maxTokens} > ${model.max_output_tokens}, which is the maximum allowed number of output tokens for ${model.id}`,
  );
}

/** allowed_models of the key and the models of the plan. */
export function modelPermitted(entry: CachedKey, model: CatalogueModel): boolean {
  const planModels = entry.limits.models;
  if (planModels !== null && !planModels.includes(model.id)) return false;
  const keyModels = entry.record.allowed_models;
  return keyModels === null || keyModels.includes(model.id);
}

export function checkModelPermitted(entry: CachedKey, model: CatalogueModel): GatewayError | undefined {
  return modelPermitted(entry, model) ? undefined : new PermissionDeniedError('model');
}

/** The routes inside the key's tier. There is no fallback: a model without one is refused, never widened. */
export function routesInTier(catalogue: ModelCatalogue, model: CatalogueModel, tier: Residency): readonly CatalogueRoute[] | GatewayError {
  const routes = catalogue.routes(model, tier);
  if (routes.length > 0) return routes;
  const inTier = catalogue.models.filter((m) => catalogue.routes(m, tier).length > 0).map((m) => m.id);
  return new ResidencyUnavailableError(
    `${model.id} has no route inside the ${tier} residency tier (${catalogue.tiers[tier].label}). ` +
      `Models available in this tier: ${inTier.join(', ')}.`,
  );
}

/**
 * The routes a decision carries, in order: each as declared when nothing verifies routes (`check` gives
 * undefined), else only those whose own evidence holds, with their verified regions. None left: refused with the
 * first route's reason.
 */
export function servableRoutes(
  declared: readonly CatalogueRoute[],
  check: (route: CatalogueRoute, index: number) => RouteCheck | undefined,
): Route[] | GatewayError {
  const routes: Route[] = [];
  let reason: string | undefined;
  declared.forEach((r, i) => {
    const c = check(r, i);
    if (c === undefined) routes.push(wireRoute(r, null));
    else if (c.ok) routes.push(wireRoute(c.route, c.evidence));
    else reason ??= c.reason;
  });
  if (routes.length === 0) return new ResidencyUnavailableError(reason ?? 'No route of this model can be served in the tier now.');
  return routes;
}

function wireRoute(r: CatalogueRoute, evidence: RouteEvidence | null): Route {
  return { upstream: r.upstream, upstream_model: r.upstream_model, call_region: r.call_region, processing_regions: [...r.processing_regions], evidence };
}

/** Models this key can call: tier ∩ plan ∩ allowed_models, in catalogue order. */
export function callableModels(catalogue: ModelCatalogue, entry: CachedKey): CatalogueModel[] {
  return catalogue.models.filter((m) => catalogue.routes(m, entry.residency).length > 0 && modelPermitted(entry, m));
}

export function isError<T>(v: T | GatewayError): v is GatewayError {
  return v instanceof Error;
}
