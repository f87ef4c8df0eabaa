import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';
import type { Pricing, Residency, Route } from '@gateway/shared';

/** The shipped catalogue (policy/catalogue/catalogue.json); a deployment may point CATALOGUE_FILE elsewhere. */
export const DEFAULT_CATALOGUE_FILE = resolve(dirname(fileURLToPath(import.meta.url)), '../../catalogue/catalogue.json');

export interface CatalogueModel {
  id: string;
  display_name: string;
  created_at: string;
  context_window: number;
  max_output_tokens: number;
  supports_vision: boolean;
  best_tier: Residency;
  pricing_gbp_per_million: Pricing;
  /** Only tiers that have a route; a tier without one is residency_unavailable, never widened. */
  routes: Partial<Record<Residency, Route>>;
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

  constructor(catalogue: Catalogue, sha256 = '') {
    validateCatalogue(catalogue);
    this.sha256 = sha256;
    this.tiers = catalogue.tiers;
    this.models = catalogue.models;
    this.byId = new Map(catalogue.models.map((m) => [m.id, m]));
  }

  static load(file: string = DEFAULT_CATALOGUE_FILE): ModelCatalogue {
    // One read: the digest is of exactly the bytes the routes come from.
    const bytes = readFileSync(file);
    return new ModelCatalogue(JSON.parse(bytes.toString('utf8')) as Catalogue, createHash('sha256').update(bytes).digest('hex'));
  }

  /** An alias or a dated alias `<alias>-<yyyymmdd>` → the catalogue entry; undefined when unknown. */
  resolve(model: string): CatalogueModel | undefined {
    const direct = this.byId.get(model);
    if (direct !== undefined) return direct;
    const dated = DATED_ALIAS.exec(model);
    if (dated === null || !isCalendarDate(dated[2] as string)) return undefined;
    return this.byId.get(dated[1] as string);
  }

  /** The route inside a tier, or undefined: there is no fallback to another tier. */
  route(model: CatalogueModel, tier: Residency): Route | undefined {
    return model.routes[tier];
  }
}

function isCalendarDate(yyyymmdd: string): boolean {
  const y = Number(yyyymmdd.slice(0, 4));
  const m = Number(yyyymmdd.slice(4, 6));
  const d = Number(yyyymmdd.slice(6, 8));
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

const PRICE = /^\d+(\.\d{1,2})?$/;

/** Refuses a catalogue that would let a route leave its tier or that has prices the billing cannot keep exact. */
function validateCatalogue(c: Catalogue): void {
  const problems: string[] = [];
  for (const m of c.models) {
    for (const [kind, price] of Object.entries(m.pricing_gbp_per_million)) {
      if (!PRICE.test(price)) problems.push(`${m.id}: price ${kind} "${price}" must have at most 2 decimals`);
    }
    for (const [tier, route] of Object.entries(m.routes) as Array<[Residency, Route]>) {
      // A profile id decides where inference may run whatever regions are listed: uk calls in-region ids only,
      // eu only the EU profile; a global, US or APAC profile is never acceptable.
      const profile = /^(eu|us|apac|global|jp|au|ca)\./.exec(route.upstream_model)?.[1];
      if (tier === 'uk' && profile !== undefined) problems.push(`${m.id}/uk: ${route.upstream_model} is a cross-region profile`);
      if (tier === 'eu' && profile !== 'eu') problems.push(`${m.id}/eu: ${route.upstream_model} is not an EU profile id`);
      const allowed = new Set(c.tiers[tier]?.regions ?? []);
      if (!allowed.has(route.call_region)) problems.push(`${m.id}/${tier}: call region ${route.call_region} outside the tier`);
      for (const r of route.processing_regions) {
        if (!allowed.has(r)) problems.push(`${m.id}/${tier}: processing region ${r} outside the tier`);
      }
    }
    if (m.routes[m.best_tier] === undefined) problems.push(`${m.id}: no route in its best tier ${m.best_tier}`);
  }
  if (problems.length > 0) throw new Error(`invalid catalogue:\n  - ${problems.join('\n  - ')}`);
}
