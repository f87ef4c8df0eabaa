import { isUpper } from './name-features.js';

// Code names a parameter or field after its type: "grant: Grant", "user?: User", "rose: Rose" (TypeScript,
// Python, Rust, Kotlin, Swift) or declares one after it: "Gson gson", "stack Stack" (Java, C#, C++, Go). Where a text does that, the word is a type on its code and comment lines ("/** A
// Grant without evidence */"), not a person; prose never writes a word, a colon and the same word capitalised, and
// a prose line of the same text ("Grant will review it.") keeps its people.

const WORD_CHAR = /[\p{L}\p{N}_]/u;

function isLower(c: string): boolean {
  return c !== c.toUpperCase() && c === c.toLowerCase();
}

/** The capitalised words `text` annotates a same-named identifier with: one pass over its colons. */
export function typeNamesIn(text: string): ReadonlySet<string> {
  const out = new Set<string>();
  for (let colon = text.indexOf(':'); colon !== -1; colon = text.indexOf(':', colon + 1)) {
    let end = colon;
    if (text.charAt(end - 1) === '?') end -= 1;
    let start = end;
    while (start > 0 && WORD_CHAR.test(text.charAt(start - 1))) start -= 1;
    if (start === end || !isLower(text.charAt(start))) continue;
    let from = colon + 1;
    while (text.charAt(from) === ' ' || text.charAt(from) === '\t') from += 1;
    if (!isUpper(text.charAt(from))) continue;
    let to = from + 1;
    while (to < text.length && WORD_CHAR.test(text.charAt(to))) to += 1;
    const type = text.slice(from, to);
    if (type.toLowerCase() === text.slice(start, end).toLowerCase()) out.add(type);
  }
  return out;
}

const IDENTIFIER_CHAR = /[\p{L}\p{N}_]/u;

/** Whether `text` holds `phrase` with no identifier character on either side (and no "." before it). */
function standsAlone(text: string, phrase: string): boolean {
  for (let at = text.indexOf(phrase); at !== -1; at = text.indexOf(phrase, at + 1)) {
    const before = at === 0 ? '' : text.charAt(at - 1);
    const after = text.charAt(at + phrase.length);
    if (!IDENTIFIER_CHAR.test(before) && before !== '.' && !IDENTIFIER_CHAR.test(after)) return true;
  }
  return false;
}

/**
 * Whether `text` declares a variable named after the type `word`, as Java, C# and C++ ("Gson gson = new Gson()",
 * "Logger logger") or Go ("stack Stack", "buffer *Buffer") write it. Prose never writes a capitalised word and the
 * same word in lower case side by side. Looked for one word at a time: a scan of the whole text for every such
 * pair cost 8 ms per 115 KB.
 */
export function declaresType(text: string, word: string): boolean {
  const lower = word.toLowerCase();
  if (lower === word) return false;
  return standsAlone(text, `${word} ${lower}`) || standsAlone(text, `${lower} ${word}`) || standsAlone(text, `${lower} *${word}`);
}

const COMMENT_START = /^\s*(?:\/\/|\/\*|\*|#|--)/;
const CODE_PUNCTUATION = /[{}();=<>[\]]/;

/**
 * Whether the line holding the type name `type` at `at` reads as code or a comment: a comment marker opens it,
 * code punctuation is in it, or it annotates with the type itself ("  grant: Grant,").
 */
export function onCodeLine(text: string, at: number, type: string): boolean {
  const from = text.lastIndexOf('\n', at) + 1;
  let to = text.indexOf('\n', at);
  if (to === -1) to = text.length;
  const line = text.slice(from, to);
  return COMMENT_START.test(line) || CODE_PUNCTUATION.test(line) || line.includes(`: ${type}`) || line.includes(`:${type}`);
}
