import { GIVEN_NAME_SET } from '../recognizers/person-words.js';
import { isIdentifierWord } from './agent-text-words.js';

// A capitalised word standing as one item of a list whose other items are written the way software is ("BoringSSL,
// GnuTLS, LibreSSL, OpenSSL, mbedTLS, Rustls, Schannel (native Windows), or wolfSSL"; "Maemo, Mbed, Meego, MINIX,
// Minoca, Moblin, MorphOS, MPE/iX"; a JSON array of licence ids "BSD-3-Clause", "Barr", "Beerware") is software,
// an operating system or a licence like them, not a person. Only the list's own lines are read. A word the name
// lists know is read so only as a quoted value among many such ("Thanks to FrenchBen, jsmith and Anna" keeps its
// person), and no item is in a list with a person's full name, a handle or a mailbox in it ("KenHV, Khalila, Koichi
// ITO").

/**
 * Where a list's items part: a comma or semicolon, a bar, a full stop or a colon before a space (or a colon before
 * an array), or "and"/"or" in the seven languages.
 */
const ITEM_BREAK_RE = /[,;|]|[.:](?=\s)|:(?=\[)|[ \t](?:and|or|und|oder|et|ou|y|o|e|en|of|i|lub)[ \t]/u;
/** A line ending on a comma: the list goes on on the next one. */
const GOES_ON_RE = /,[ \t]*$/;
/** A remark in brackets ending an item ("Schannel (native Windows)"), or its start where the line ends. */
const REMARK_RE = /[ \t]*\([^()]*\)?[\s"'`\]]*$/u;
/** Quotes, brackets and spaces around an item. */
const ITEM_TRIM_RE = /^[\s"'`[(]+|[\s"'`\])]+$/gu;
/**
 * An item written as software, one token: humps after a lower-case start ("mbedTLS", "macOS", "wolfSSL"), letters
 * and digits together ("AVR32", "Apache-2.0"), or a path's, identifier's or version's marks inside ("MPE/iX",
 * "node_modules", "Node.js"); with isIdentifierWord, a capitalised word's humps ("OpenSSL", "MorphOS"). Not capitals
 * alone, nor a number alone: OCR'd newspapers write surnames in capitals and lists of them beside house numbers.
 */
const SOFTWARE_SHAPED_RE = /^(?:\p{Ll}\S*\p{Lu}\S*|\S*\p{L}\S*\d\S*|\S*\d\S*\p{L}\S*|\S*[\p{L}\p{N}][/_.][\p{L}\p{N}]\S*)$/u;
const CAPITALISED_RE = /^\p{Lu}/u;
const QUOTES: ReadonlySet<string> = new Set(['"', "'", '`']);
/** A key's colon or equals sign, then quotes and spaces, right before the word. */
const VALUE_OF_FIELD_RE = /[:=][\s"'`]*$/;
/** A list this long (the word's item included) before its shape says anything. */
const MIN_ITEMS = 3;
/** Other items written as software it needs. */
const MIN_SOFTWARE_ITEMS = 2;
/** How far either way a list is read on the word's line. */
const REACH = 240;

/**
 * Whether the word at [start, end) is a whole item of a list with other items written as software: the list on its
 * line, and on the lines before and after it that a comma joins to it ("…, Rustls,\nSchannel (native Windows), or
 * wolfSSL."). A word the name lists know (`listed`) needs more: quoted as a value of a list of values, twice as many
 * of them written as software (SPDX's licence ids hold "Barr" and "Artistic-1.0").
 */
export function inSoftwareList(text: string, start: number, end: number, listed = false): boolean {
  if (listed && !(QUOTES.has(text.charAt(start - 1)) && text.charAt(end) === text.charAt(start - 1))) return false;
  let from = text.lastIndexOf('\n', start - 1) + 1;
  while (from > 0 && start - from < REACH) {
    const previous = text.lastIndexOf('\n', from - 2) + 1;
    if (!GOES_ON_RE.test(text.slice(previous, from - 1))) break;
    from = previous;
  }
  from = Math.max(from, start - REACH);
  let to = end;
  for (;;) {
    const next = text.indexOf('\n', to);
    if (next < 0 || next > end + REACH) {
      to = Math.min(text.length, end + REACH);
      break;
    }
    to = next;
    if (!GOES_ON_RE.test(text.slice(Math.max(end, next - 8), next))) break;
    to = next + 1;
  }
  // A field's value is no list's item, whatever the other fields hold: '"name": "Kowalczyk", "id": "u_123"'.
  if (VALUE_OF_FIELD_RE.test(text.slice(Math.max(from, start - 8), start))) return false;
  const before = text.slice(from, start).split(ITEM_BREAK_RE);
  const after = text.slice(end, to).split(ITEM_BREAK_RE);
  // The word's own item is the word alone: nothing but quotes, brackets or a remark in brackets around it.
  if (trimItem(before.pop() ?? '') !== '' || trimItem(after.shift() ?? '') !== '') return false;
  // An item of more than three words is a phrase around the list, not one of its items: it counts for nothing.
  const items = [...before.reverse(), ...after].map(trimItem);
  let count = 1;
  let software = 0;
  for (const item of items) {
    const words = item.split(/\s+/);
    if (item === '' || words.length > 3) continue;
    // A person's full name, a handle or a mailbox among them makes it a list of people ("KenHV, Khalila, Koichi
    // ITO", "@jsmith_42, @dev2 and Brzęczyszczykiewicz").
    if (words.length > 1 && GIVEN_NAME_SET.has(words[0] as string) && words.every((w) => CAPITALISED_RE.test(w))) return false;
    if (item.includes('@')) return false;
    count += 1;
    if (words.length === 1 && (SOFTWARE_SHAPED_RE.test(item) || isIdentifierWord(item))) software += 1;
  }
  return count >= MIN_ITEMS && software >= (listed ? 2 * MIN_SOFTWARE_ITEMS : MIN_SOFTWARE_ITEMS);
}

function trimItem(item: string): string {
  return item.replace(REMARK_RE, '').replace(ITEM_TRIM_RE, '');
}

/** CSS's generic font families: a list with one of them is a font stack ("system-ui, 'Segoe UI', Roboto, sans-serif"). */
const GENERIC_FAMILIES: ReadonlySet<string> = new Set(
  'serif sans-serif monospace cursive fantasy system-ui ui-serif ui-sans-serif ui-monospace ui-rounded -apple-system'.split(' '),
);
/**
 * Where a CSS value starts and ends around a word: after a property's colon, a brace or an attribute's equals sign
 * (a stack may go on over lines: "--monospace: 'SFMono-Regular', Consolas,\n  Menlo, monospace;"), up to a
 * semicolon, brace, tag's end or line's end.
 */
const VALUE_START_RE = /[:{=][^:{=;}]*$/;
const VALUE_END_RE = /[;}>\n]/;
/** The value's property names fonts: "font-family: …", "font: 12px …", SVG's font-family="…" (not "Lafont: …"). */
const FONT_PROPERTY_RE = /(?:^|[\s;{"'])font(?:-family)?[ \t]*$/i;
/** A CSS property or custom property before the colon ("--sans:", "font-family:"), not a label ("Note:"). */
const CSS_PROPERTY_RE = /(?:^|[\s;{])-{0,2}[a-z][a-z0-9-]*[ \t]*$/;

/**
 * Whether the word at [start, end) is a whole item of a CSS font stack (a font property's value, or a list with a
 * generic family in it): fonts named after people ("Georgia", "Roboto", "Virgil") are typefaces there, whatever the
 * name lists know.
 */
export function inFontStack(text: string, start: number, end: number): boolean {
  const window = text.slice(Math.max(0, start - REACH), start);
  const head = VALUE_START_RE.exec(window);
  if (head === null) return false;
  const rest = text.slice(end, end + REACH);
  const stop = rest.search(VALUE_END_RE);
  const items = `${head[0].slice(1)}\u0000${stop < 0 ? rest : rest.slice(0, stop)}`.split(',').map((i) => i.replace(ITEM_TRIM_RE, ''));
  // The word opens an item of its own ("Noto Sans", "Segoe UI Emoji" are one font each; "12px Helvetica" is the
  // font shorthand's last part).
  const own = items.find((i) => i.includes('\u0000')) ?? '';
  if (!/^\u0000(?:[ \t]+[\p{L}\d]+)*$/u.test(own) && !/^\S*\d\S*[ \t]+\u0000$/.test(own)) return false;
  const property = window.slice(0, head.index);
  if (FONT_PROPERTY_RE.test(property)) return true;
  // A generic family among the items, in a property's value: "--sans: system-ui, 'Segoe UI', Roboto, sans-serif".
  return head[0].charAt(0) === ':' && CSS_PROPERTY_RE.test(property) && items.some((i) => GENERIC_FAMILIES.has(i));
}
