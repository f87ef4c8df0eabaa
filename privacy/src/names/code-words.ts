import { isListedName } from '../recognizers/person-words.js';
import { beforeVersion, nearbyBounds, TextMemo } from './agent-text-words.js';

// A capitalised word that the same text uses as code nearby is a type, a library or a tool, not a person, even
// where it stands in prose ("class Logger implements" beside "Logger.php", "Measure Gson and Jackson parsing"
// beside "com.fasterxml.jackson.core" and "JacksonStreamParser", "Ausgabe von Tar" beside "tar -x", "after Cobra
// tried" beside "TestCompletionCobraFlags"). The evidence is the word itself, or its lower-case form, where only
// code writes it: inside an identifier, touching member or call punctuation, as a package path's segment, as a
// command with an option or a man page's reference, a product before its version ("Clang 3.4"). Lower-case prose
// ("on darwin.") is no such evidence: many names are words too (writtenLowerCase, agent-text-words.ts, covers
// words the name lists do not know). Set on the dev part of the agent-text set (test/fixtures/agent-text); its
// held-out part is only reported.

const LETTER = /\p{L}/u;
const LOWER_OR_DIGIT = /[\p{Ll}\p{N}]/u;
const UPPER = /\p{Lu}/u;
const IDENTIFIER_CHAR = /[\p{L}\p{N}_]/u;

/** Right before the word as written: a member, namespace, variable or generic ("x.Buffer", "Monolog\Logger", "List<Gson>"). */
const CODE_CHAR_BEFORE: ReadonlySet<string> = new Set(['.', '\\', '$', '<']);
/** Keywords that declare or construct a type right before it ("class Logger", "new Gson(", "extends Buffer"). */
const DECLARES_BEFORE = /(?:^|[^\p{L}\p{N}_])(?:new|class|interface|struct|enum|trait|impl|extends|implements|instanceof|import)[ \t]+$/u;
/**
 * TypeScript's "type" keyword: an item of an import or export list ("{ type Logger, …", the item ending there) or
 * an alias ("export type Employee = …"); "Please, type Smith in the box" is neither.
 */
const TYPE_ITEM_BEFORE = /[{,][ \t\r\n]*type[ \t]+$/;
const TYPE_ITEM_AFTER = /^[ \t]*(?:[,}]|\r?\n|as[ \t])/;
const TYPE_ALIAS_BEFORE = /(?:^|\n)[ \t]*(?:export[ \t]+)?type[ \t]+$/;
const TYPE_ALIAS_AFTER = /^[ \t]*[=<]/;

function afterTypeKeyword(text: string, at: number, end: number): boolean {
  // Read for every occurrence of a word in its block: a cheap test first.
  if (!text.startsWith('type', at - 5) || (text.charCodeAt(at - 1) !== 0x20 && text.charCodeAt(at - 1) !== 0x09)) return false;
  const before = text.slice(Math.max(0, at - 24), at);
  const after = text.slice(end, end + 4);
  return (TYPE_ITEM_BEFORE.test(before) && TYPE_ITEM_AFTER.test(after)) || (TYPE_ALIAS_BEFORE.test(before) && TYPE_ALIAS_AFTER.test(after));
}

/**
 * Right after it: a call, member or file extension, a namespace, a generic, an array type, a body or a shell's
 * escaped space ("Buffer.concat", "Logger.php", "Gson()", "Buffer[]", `case "$os" in Darwin\ arm64*)`).
 */
const CODE_AFTER = /^(?:\(|\.\p{L}|::|<|\[\]|[ \t]*\{|\\ )/u;

/** An assignment's value, alone up to the statement's end: "stack.Location = GoMod\n", "kind := Buffer;". */
const ASSIGNED_BEFORE = /[\p{L}\p{N}_\])][ \t]*:?=[ \t]*$/u;
const VALUE_ENDS_AFTER = /^[ \t]*(?:[;,)\]}]|\r?\n|$)/;

/** Whether `word`, exactly as written, appears at `at` as code or inside an identifier. */
function exactAsCode(text: string, word: string, at: number): boolean {
  const before = text.charAt(at - 1);
  const end = at + word.length;
  const after = text.charAt(end);
  // A hump of a longer identifier: "finalBuffer", "DebugRoslynComponent", "LoggerInterface", "CobraFlags"; not a
  // handle joining a person's names ("FrenchBen@users.noreply.github.com", "@FrenchBen", "github.com/FrenchBen").
  if ((at > 0 && LOWER_OR_DIGIT.test(before)) || UPPER.test(after)) return !isHandle(text, at);
  if (IDENTIFIER_CHAR.test(before) || (after !== '' && IDENTIFIER_CHAR.test(after))) return false;
  if (CODE_CHAR_BEFORE.has(before) || text.startsWith('::', at - 2) || text.startsWith('->', at - 2)) return true;
  if (DECLARES_BEFORE.test(text.slice(Math.max(0, at - 16), at)) || afterTypeKeyword(text, at, end)) return true;
  if (ASSIGNED_BEFORE.test(text.slice(Math.max(0, at - 8), at)) && VALUE_ENDS_AFTER.test(text.slice(end, end + 3))) return true;
  // A product before its version, as a build matrix or a changelog writes it ("Clang 3.4", "when Ruby 2.7+").
  return CODE_AFTER.test(text.slice(end, end + 3)) || beforeVersion(text, end, isListedName(word));
}

/** Whether the identifier around `at` is a handle: in an address, after "@", or a URL's path segment. */
function isHandle(text: string, at: number): boolean {
  let from = at;
  while (from > 0 && IDENTIFIER_CHAR.test(text.charAt(from - 1))) from -= 1;
  let to = at;
  while (to < text.length && IDENTIFIER_CHAR.test(text.charAt(to))) to += 1;
  const before = text.charAt(from - 1);
  return before === '@' || before === '/' || text.charAt(to) === '@';
}

/** A dotted or slashed path's run of characters: a package, a module, a URL's path, an address. */
const PATH_CHAR = /[\p{L}\p{N}_.\-/]/u;

/**
 * Whether `lower`, the lower-case form, appears at `at` as only code writes it: a segment inside a package or
 * import path ("com.google.gson.stream", "github.com/spf13/cobra\""), not an address's ("jade.alglave@…"); an
 * identifier's start ("jacksonType"); between brackets ("not(darwin)"); a command with an option ("tar -x", "tar
 * --create"); a man page reference ("tar(1)").
 */
function lowerAsCode(text: string, lower: string, at: number): boolean {
  const before = text.charAt(at - 1);
  const end = at + lower.length;
  const after = text.charAt(end);
  if (at > 0 && (LETTER.test(before) || /[\p{N}_]/u.test(before))) return false;
  if (UPPER.test(after)) return true;
  if (after !== '' && IDENTIFIER_CHAR.test(after)) return false;
  if ((before === '.' || before === '/') && ((after === '.' && LETTER.test(text.charAt(end + 1))) || after === '/' || after === '"' || after === "'")) {
    // An address is no path: "first.last@example.org".
    let to = end;
    while (to < text.length && PATH_CHAR.test(text.charAt(to))) to += 1;
    return text.charAt(to) !== '@';
  }
  if ((before === '(' || before === '[') && (after === ')' || after === ']')) return true;
  return /^(?:[ \t]+--?\p{L}|\(\d)/u.test(text.slice(end, end + 4));
}

/**
 * Whether the text around `at` (the block writtenLowerCase reads) uses `word` as code, as written or in lower
 * case. Answers are kept per block (its start and end: the first two blocks both start at 0) and word, like
 * writtenLowerCase's: a file repeats its type names.
 */
export function usedAsCode(text: string, word: string, at: number): boolean {
  const [from, to] = nearbyBounds(text, at);
  return codeAnswers.get(text, `${from}:${to}:${word}`, () => findAsCode(text, word, from, to));
}

const codeAnswers = new TextMemo();

function findAsCode(text: string, word: string, from: number, to: number): boolean {
  // Searched in the block alone: text.indexOf from `from` reads on to the text's end where the block has no match.
  const block = text.slice(from, to);
  for (let i = block.indexOf(word); i !== -1; i = block.indexOf(word, i + 1)) if (exactAsCode(text, word, from + i)) return true;
  const lower = word.toLowerCase();
  if (lower === word) return false;
  for (let i = block.indexOf(lower); i !== -1; i = block.indexOf(lower, i + 1)) if (lowerAsCode(text, lower, from + i)) return true;
  return false;
}
