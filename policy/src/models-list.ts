import type { ModelEntryWire, ModelPage, Residency } from '@gateway/shared';
import type { CatalogueModel, ModelCatalogue } from './catalogue.js';
import type { CachedKey } from './key-cache.js';
import { callableModels } from './decision-rules.js';

/**
 * Where a key of a tier may have a model run now: the catalogue's declaration, or, where routes are verified
 * against the platform, the verified set ([] while the route is refused).
 */
export type RegionsOf = (model: CatalogueModel, tier: Residency) => readonly string[];

export const declaredRegions = (catalogue: ModelCatalogue): RegionsOf => (model, tier) => unionOfRegions(catalogue, tier, catalogue.routes(model, tier).map((r) => r.processing_regions));

/** The union of several routes' regions, in the tier's order (so one route's list comes back as it is). */
export function unionOfRegions(catalogue: ModelCatalogue, tier: Residency, lists: ReadonlyArray<readonly string[]>): string[] {
  if (lists.length === 1) return [...(lists[0] as readonly string[])];
  const all = new Set(lists.flat());
  const ordered = catalogue.tiers[tier].regions.filter((r) => all.has(r));
  return ordered.length === all.size ? ordered : [...all];
}

export function modelEntry(catalogue: ModelCatalogue, model: CatalogueModel, entry: CachedKey, regionsOf: RegionsOf = declaredRegions(catalogue)): ModelEntryWire {
  return {
    id: model.id,
    display_name: model.display_name,
    context_window: model.context_window,
    max_output_tokens: model.max_output_tokens,
    supports_vision: model.supports_vision,
    residency: model.best_tier,
    residency_label: catalogue.tiers[model.best_tier].label,
    // Where this key's request to the model may run: the same list X-Gateway-Regions reports.
    processing_regions: [...regionsOf(model, entry.residency)],
    pricing_gbp_per_million: { ...model.pricing_gbp_per_million },
    created_at: model.created_at,
  };
}

export interface PageRequest {
  limit: number;
  after_id: string;
  before_id: string;
}

/** A page of the given models, labelled with the key's tier. */
export function modelPage(catalogue: ModelCatalogue, entry: CachedKey, models: readonly CatalogueModel[], hasMore: boolean, regionsOf?: RegionsOf): ModelPage {
  return {
    data: models.map((m) => modelEntry(catalogue, m, entry, regionsOf)),
    has_more: hasMore,
    residency_tier: entry.residency,
    residency_tier_label: catalogue.tiers[entry.residency].label,
  };
}

/** The vendor's list paging: limit (default 20, 1–1000), after_id / before_id, has_more. */
export function listModelsPage(catalogue: ModelCatalogue, entry: CachedKey, page: PageRequest, regionsOf?: RegionsOf): ModelPage {
  const all = callableModels(catalogue, entry);
  const limit = page.limit === 0 ? 20 : Math.min(Math.max(page.limit, 1), 1000);
  let slice: CatalogueModel[];
  let hasMore: boolean;
  if (page.before_id !== '') {
    const end = all.findIndex((m) => m.id === page.before_id);
    if (end === -1) return modelPage(catalogue, entry, [], false, regionsOf);
    const start = Math.max(0, end - limit);
    slice = all.slice(start, end);
    hasMore = start > 0;
  } else {
    const start = page.after_id === '' ? 0 : indexOf(all, page.after_id) + 1;
    slice = all.slice(start, start + limit);
    hasMore = start + limit < all.length;
  }
  return modelPage(catalogue, entry, slice, hasMore, regionsOf);
}

/** Position of an id in the list; an unknown cursor gives an empty page rather than a loop. */
function indexOf(list: CatalogueModel[], id: string): number {
  const i = list.findIndex((m) => m.id === id);
  return i === -1 ? list.length : i;
}
