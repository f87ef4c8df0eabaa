import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';
import type { Pricing, Residency } from '@gateway/shared';

/** The shipped catalogue (policy/catalogue/catalogue.json); a deployment may point CATALOGUE_FILE elsewhere. */
export const DEFAULT_CATALOGUE_FILE = resolve(dirname(fileURLToPath(import.meta.url)), '../../catalogue/catalogue.json');
/** The shipped table of every region id a catalogue may name (policy/catalogue/regions.json). */
export const DEFAULT_REGIONS_FILE = resolve(dirname(fileURLToPath(import.meta.url)), '../../catalogue/regions.json');

/** One way to serve a (model, tier): a named upstream called in one region, processing in the listed ones. */
export interface CatalogueRoute {
  /** the name of a configured upstream (UPSTREAMS_FILE); "default" when the catalogue names none */
  upstream: string;
  upstream_model: string;
  /** AWS region or Vertex location the call is made in */
  call_region: string;
  processing_regions: string[];
}

export type RegionPlatform = 'bedrock' | 'vertex';

export interface RegionInfo {
  platform: RegionPlatform;
  country: string;
  location: string;
}

export type RegionTable = Readonly<Record<string, RegionInfo>>;

export function loadRegionTable(file: string = DEFAULT_REGIONS_FILE): RegionTable {
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as { regions?: Record<string, RegionInfo> };
  if (typeof parsed.regions !== 'object' || parsed.regions === null) throw new Error(`invalid region table ${file}: no "regions" object`);
  return parsed.regions;
}

export interface CatalogueModel {
  id: string;
  display_name: string;
  created_at: string;
  context_window: number;
  max_output_tokens: number;
  supports_vision: boolean;
  best_tier: Residency;
  pricing_gbp_per_million: Pricing;
  /**
   * Only tiers that have routes, each an ordered list (failover goes down it, never to another tier); a tier
   * without one is residency_unavailable, never widened.
   */
  routes: Partial<Record<Residency, CatalogueRoute[]>>;
}

/** The file as written: a tier's routes may be one object (read as a one-element list), a route's upstream unset. */
type RouteAsWritten = Omit<CatalogueRoute, 'upstream'> & { upstream?: string };
type ModelAsWritten = Omit<CatalogueModel, 'routes'> & { routes: Partial<Record<Residency, RouteAsWritten | RouteAsWritten[]>> };
export interface CatalogueFile {
  tiers: Record<Residency, TierInfo>;
  models: ModelAsWritten[];
}

export interface TierInfo {
  label: string;
  regions: string[];
}

export interface Catalogue {
  tiers: Record<Residency, TierInfo>;
  models: CatalogueModel[];
}

const DATED_ALIAS = /^(.+)-(\d{8})$/;

export class ModelCatalogue {
  readonly tiers: Record<Residency, TierInfo>;
  readonly models: readonly CatalogueModel[];
  /** Hex SHA-256 of the file's bytes as read (attested on every response); '' for one built from an object. */
  readonly sha256: string;
  private readonly byId: Map<string, CatalogueModel>;

  constructor(written: Catalogue | CatalogueFile, sha256 = '', regions: RegionTable = loadRegionTable()) {
    const catalogue = normalise(written);
    validateCatalogue(catalogue, regions);
    this.sha256 = sha256;
    this.tiers = catalogue.tiers;
    this.models = catalogue.models;
    this.byId = new Map(catalogue.models.map((m) => [m.id, m]));
  }

  static load(file: string = DEFAULT_CATALOGUE_FILE, regions: RegionTable = loadRegionTable()): ModelCatalogue {
    // One read: the digest is of exactly the bytes the routes come from.
    const bytes = readFileSync(file);
    return new ModelCatalogue(JSON.parse(bytes.toString('utf8')) as CatalogueFile, createHash('sha256').update(bytes).digest('hex'), regions);
  }

  /** An alias or a dated alias `<alias>-<yyyymmdd>` → the catalogue entry; undefined when unknown. */
  resolve(model: string): CatalogueModel | undefined {
    const direct = this.byId.get(model);
    if (direct !== undefined) return direct;
    const dated = DATED_ALIAS.exec(model);
    if (dated === null || !isCalendarDate(dated[2] as string)) return undefined;
    return this.byId.get(dated[1] as string);
  }

  /** The routes inside a tier, in order ([] when none): there is no fallback to another tier. */
  routes(model: CatalogueModel, tier: Residency): readonly CatalogueRoute[] {
    return model.routes[tier] ?? [];
  }
}

/**
 * The routes that name an upstream the configuration does not have (`model/tier[i]: upstream`), in catalogue order.
 * The proxy skips them (CONTRACT.md "Routes and failover"), so a deployment that forgot one would otherwise learn it
 * only from a failing request or, where another route serves, not at all.
 */
export function routesOnUnknownUpstreams(catalogue: ModelCatalogue, configured: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const m of catalogue.models) {
    for (const [tier, routes] of Object.entries(m.routes) as Array<[Residency, CatalogueRoute[]]>) {
      routes.forEach((r, i) => {
        if (!configured.has(r.upstream)) out.push(`${m.id}/${tier}[${i}]: ${r.upstream}`);
      });
    }
  }
  return out;
}

function isCalendarDate(yyyymmdd: string): boolean {
  const y = Number(yyyymmdd.slice(0, 4));
  const m = Number(yyyymmdd.slice(4, 6));
  const d = Number(yyyymmdd.slice(6, 8));
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

const PRICE = /^\d+(\.\d{1,2})?$/;

/** A single route object read as a one-element list; a route without `upstream` on the one named "default". */
function normalise(c: Catalogue | CatalogueFile): Catalogue {
  return {
    tiers: c.tiers,
    models: c.models.map((m) => {
      const routes: Partial<Record<Residency, CatalogueRoute[]>> = {};
      for (const [tier, written] of Object.entries(m.routes) as Array<[Residency, RouteAsWritten | RouteAsWritten[] | undefined]>) {
        if (written === undefined) continue;
        routes[tier] = (Array.isArray(written) ? written : [written]).map((r) => ({ ...r, upstream: r.upstream ?? 'default' }));
      }
      return { ...m, routes };
    }),
  };
}

/**
 * Refuses a catalogue that would let a route leave its tier, names a region the table does not know, reaches
 * for a global or US endpoint, or has prices the billing cannot keep exact. Every problem is listed at once.
 */
function validateCatalogue(c: Catalogue, regions: RegionTable): void {
  const problems: string[] = [];
  for (const [tier, info] of Object.entries(c.tiers)) {
    for (const r of info.regions) if (regions[r] === undefined) problems.push(`tier ${tier}: region ${r} is not in the region table`);
  }
  for (const m of c.models) {
    for (const [kind, price] of Object.entries(m.pricing_gbp_per_million)) {
      if (!PRICE.test(price)) problems.push(`${m.id}: price ${kind} "${price}" must have at most 2 decimals`);
    }
    for (const [tier, routes] of Object.entries(m.routes) as Array<[Residency, CatalogueRoute[]]>) {
      if (routes.length === 0) problems.push(`${m.id}/${tier}: an empty list of routes (leave the tier out instead)`);
      routes.forEach((route, i) => problems.push(...routeProblems(`${m.id}/${tier}[${i}]`, tier, route, c.tiers[tier]?.regions ?? [], regions)));
    }
    if ((m.routes[m.best_tier] ?? []).length === 0) problems.push(`${m.id}: no route in its best tier ${m.best_tier}`);
  }
  if (problems.length > 0) throw new Error(`invalid catalogue:\n  - ${problems.join('\n  - ')}`);
}

/** What is wrong with one route of a tier (pure). */
export function routeProblems(where: string, tier: Residency, route: CatalogueRoute, tierRegions: readonly string[], regions: RegionTable): string[] {
  const problems: string[] = [];
  if (typeof route.upstream !== 'string' || route.upstream === '') problems.push(`${where}: upstream must be a non-empty name`);
  if (typeof route.upstream_model !== 'string' || route.upstream_model === '') return [...problems, `${where}: upstream_model missing`];
  if (!Array.isArray(route.processing_regions) || route.processing_regions.length === 0) return [...problems, `${where}: processing_regions missing`];
  // Global and US endpoints decide themselves where inference runs: never inside a residency tier.
  if (/^(global|us)\./.test(route.upstream_model)) problems.push(`${where}: ${route.upstream_model} is a global or US model id`);
  if (route.call_region === 'global' || route.processing_regions.includes('global')) problems.push(`${where}: the global location is never inside a tier`);
  for (const r of [route.call_region, ...route.processing_regions]) {
    if (r !== 'global' && regions[r] === undefined) problems.push(`${where}: region ${r} is not in the region table`);
  }
  const allowed = new Set(tierRegions);
  if (!allowed.has(route.call_region)) problems.push(`${where}: call region ${route.call_region} outside the tier`);
  for (const r of route.processing_regions) if (!allowed.has(r)) problems.push(`${where}: processing region ${r} outside the tier`);
  if (regions[route.call_region]?.platform === 'bedrock') {
    // A Bedrock profile id decides where inference may run whatever regions are listed: uk calls in-region ids
    // only, eu only the EU profile; any other profile is never acceptable.
    const profile = /^(eu|us|apac|global|jp|au|ca)\./.exec(route.upstream_model)?.[1];
    if (tier === 'uk' && profile !== undefined) problems.push(`${where}: ${route.upstream_model} is a cross-region profile`);
    if (tier === 'eu' && profile !== 'eu') problems.push(`${where}: ${route.upstream_model} is not an EU profile id`);
  }
  return problems;
}
