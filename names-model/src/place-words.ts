// Place names for the place lists (names-model/lexicons/places.json, docs/privacy.md (v)): what a gazetteer or a
// locale's display names call a place, one token each, in Latin script, as written (case kept). A place name of
// several words ("Buenos Aires", "Nowa Zelandia") is not one token and is left out: the tagger looks words up one
// at a time, and "Nowa" or "San" alone would be no evidence of a place.

/** One capitalised token of letters (an apostrophe or hyphen inside: "Bielsko-Biała", "L'Aquila") in Latin script. */
const PLACE_TOKEN = /^\p{Lu}[\p{Script=Latin}\p{M}]*(?:['’-]\p{Script=Latin}[\p{Script=Latin}\p{M}]*)*$/u;

export function isPlaceToken(name: string): boolean {
  // A code ("DXB", "ALV": GeoNames keeps airport and ISO codes among the alternate names) is no word of prose.
  return PLACE_TOKEN.test(name) && name !== name.toUpperCase();
}

/**
 * GeoNames' cities dump (cities15000.txt: geonameid, name, asciiname, alternatenames, … population at column 14),
 * each name of a city with the city's population as its count, so that a list may take the most populous band:
 * the main name, its ASCII spelling and every alternate name that is one place token.
 */
export function geonamesCityCounts(text: string): [string, number][] {
  const out: [string, number][] = [];
  for (const line of text.split('\n')) {
    const cols = line.split('\t');
    if (cols.length < 15) continue;
    const population = Number(cols[14]);
    // A city GeoNames gives no population still names a place: it counts as one person, the least.
    const count = Number.isFinite(population) && population > 0 ? population : 1;
    const names = new Set([cols[1] ?? '', cols[2] ?? '', ...(cols[3] ?? '').split(',')].map((n) => n.trim()));
    for (const name of names) if (isPlaceToken(name)) out.push([name, count]);
  }
  return out;
}

/**
 * CLDR's territory display names of one locale (cldr-json `main/<locale>/territories.json`): every country's and
 * region's name in that language, short and variant forms included ("Meksyk", "Mołdawia", "Deutschland").
 */
export function cldrTerritoryNames(text: string): string[] {
  const json = JSON.parse(text) as { main?: Record<string, { localeDisplayNames?: { territories?: Record<string, string> } }> };
  const out: string[] = [];
  for (const locale of Object.values(json.main ?? {})) {
    for (const name of Object.values(locale.localeDisplayNames?.territories ?? {})) if (isPlaceToken(name)) out.push(name);
  }
  return out;
}
