import type { LexiconSource } from './lexicon-manifest.js';
import { cldrTerritoryNames, geonamesCityCounts } from './place-words.js';

// How words are read from each kind of word-list source (lexicon-manifest.ts `reader`). Every reader returns the
// words as the source writes them (case kept); build-lexicons-main.ts selects by case and lower-cases them.

/**
 * Debian's archive index (Packages): each package name, and its parts a product is known by: "libbrotli-dev" gives
 * "libbrotli-dev", "brotli"; "libjackson2-core-java" gives "jackson", "core", "java"; "docker.io" gives "docker".
 */
function debianPackageWords(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('Package: ')) continue;
    const name = line.slice(9).trim();
    out.push(name);
    for (let part of name.split(/[-.+]/)) {
      part = part.replace(/\d+$/, '');
      if (part.startsWith('lib') && part.length >= 6) part = part.slice(3);
      if (/^[a-z]{3,}$/.test(part)) out.push(part);
    }
  }
  return out;
}

/** GitHub Linguist's languages.yml: each language's name and its aliases ("Shell", "bash", "Dockerfile"). */
function linguistWords(text: string): string[] {
  const out: string[] = [];
  let inAliases = false;
  for (const line of text.split('\n')) {
    const top = /^([^\s#-][^:]*):\s*$/.exec(line);
    if (top !== null) {
      out.push((top[1] as string).replace(/^"|"$/g, ''));
      inAliases = false;
      continue;
    }
    if (/^ {2}aliases:\s*$/.test(line)) inAliases = true;
    else if (/^ {2}[^\s-]/.test(line)) inAliases = false;
    else if (inAliases) {
      const item = /^ {2}- (.+)$/.exec(line);
      if (item !== null) out.push((item[1] as string).replace(/^"|"$/g, ''));
    }
  }
  // A multi-word name ("Visual Basic .NET") is not one token: its single-word names are what a text writes.
  return out.filter((w) => !/\s/.test(w));
}

/** A spelling dictionary, one form a line (hunspell flags after "/" dropped). */
function wordListWords(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.split('/')[0]?.trim() ?? '')
    .filter((w) => w !== '' && !/\s/.test(w));
}

/**
 * Name statistics, each name with its count (a name that occurs on several lines, for several sexes, years or
 * districts, is summed by the caller). Names with a space or a digit in them are not one token and are left out.
 */
function csvRows(text: string, skipHeader: boolean): string[][] {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  return (skipHeader ? lines.slice(1) : lines).map((l) => l.split(','));
}

function oneToken(name: string): boolean {
  return name !== '' && !/[\s\d]/.test(name);
}

/** The US Social Security Administration's yobYYYY.txt: "name,sex,count", no header. */
function ssaCounts(text: string): [string, number][] {
  return csvRows(text, false).map((r) => [r[0]?.trim() ?? '', Number(r[2])] as [string, number]);
}

/** Berlin's cleaned "häufige Vornamen" files: "vorname,anzahl,geschlecht[,position]" with a header. */
function berlinCounts(text: string): [string, number][] {
  return csvRows(text, true).map((r) => [r[0]?.trim() ?? '', Number(r[1])] as [string, number]);
}

/**
 * The US Census Bureau's Names_2010Census.csv: "name,rank,count,…" with a header, names in capitals. A row whose
 * count is not a number (a file cut short mid line; the "ALL OTHER NAMES" total) is left out.
 */
function censusCounts(text: string): [string, number][] {
  return csvRows(text, true)
    .filter((r) => r.length >= 11 && r[0] !== 'ALL OTHER NAMES')
    .map((r) => [r[0]?.trim() ?? '', Number(r[2])] as [string, number]);
}

/** Whether a source's reader gives counts (name statistics) rather than bare words. */
export function countsNames(source: LexiconSource): boolean {
  return source.reader === 'ssa-names' || source.reader === 'berlin-first-names' || source.reader === 'census-surnames' || source.reader === 'geonames-cities';
}

/** A name-statistics file's names and counts (case as written); rows without a positive count are left out. */
export function sourceNameCounts(source: LexiconSource, text: string): [string, number][] {
  const rows =
    source.reader === 'ssa-names'
      ? ssaCounts(text)
      : source.reader === 'berlin-first-names'
        ? berlinCounts(text)
        : source.reader === 'census-surnames'
          ? censusCounts(text)
          : source.reader === 'geonames-cities'
            ? geonamesCityCounts(text)
            : [];
  return rows.filter(([name, n]) => oneToken(name) && Number.isFinite(n) && n > 0);
}

/**
 * A source's names ranked: counts summed by lower-cased name over all its files, most frequent first, ties in
 * code-point order of the name, so the same files give the same ranks.
 */
export function rankedNames(counts: Iterable<[string, number]>): string[] {
  const sums = new Map<string, number>();
  for (const [name, n] of counts) {
    const lower = name.toLowerCase();
    sums.set(lower, (sums.get(lower) ?? 0) + n);
  }
  return [...sums].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([name]) => name);
}

export function sourceWords(source: LexiconSource, text: string): string[] {
  switch (source.reader) {
    case 'ssa-names':
    case 'berlin-first-names':
    case 'census-surnames':
    case 'geonames-cities':
      return sourceNameCounts(source, text).map(([name]) => name);
    case 'cldr-territories':
      return cldrTerritoryNames(text);
    case 'debian-packages':
      return debianPackageWords(text);
    case 'linguist-languages':
      return linguistWords(text);
    case 'word-list':
      return wordListWords(text);
  }
}

/** Whether a word as written is taken by a list: `lower` (a dictionary writes it in lower case), `capitalised`. */
export function takes(take: 'all' | 'lower' | 'capitalised', w: string): boolean {
  if (take === 'all') return true;
  const first = w.charAt(0);
  const isLetter = first.toLowerCase() !== first.toUpperCase();
  if (!isLetter) return false;
  if (take === 'lower') return w === w.toLowerCase();
  return first !== first.toLowerCase() && w !== w.toUpperCase();
}
