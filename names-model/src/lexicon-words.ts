import type { LexiconSource } from './lexicon-manifest.js';

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

export function sourceWords(source: LexiconSource, text: string): string[] {
  switch (source.reader) {
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
