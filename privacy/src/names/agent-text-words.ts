import { GIVEN_NAME_SET } from '../recognizers/person-words.js';

// Words the tagger reads as names in what coding agents send, and which are none: dates in git's and mail's
// format ("Date:   Sun Nov 13 18:05:44 2016"), contractions opening a message string ("Didn't set pointers"),
// camel-case identifiers ("LogLevel", "GoMod"), and a capitalised common word whose lower-case form the same text
// writes too (a man page's table: "│ Fichero de configuración" beside "el fichero"). Set on the dev part of the
// agent-text set (test/fixtures/agent-text); its held-out part is only reported.

const WEEKDAYS: ReadonlySet<string> = new Set(['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']);
const MONTHS = 'Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec';
const MONTH_SET: ReadonlySet<string> = new Set(MONTHS.split('|'));
/** After a weekday and month: the day of the month, then a time or a year ("Sun Nov 13 18:05:44", "Thu, 1 Jun 2017"). */
const DAY_AFTER = new RegExp(`^,?[ \\t]+(?:(?:${MONTHS})[ \\t]+)?\\d{1,2}(?:[ \\t]+(?:${MONTHS}))?[ \\t]+\\d{1,4}[:\\s]`);

/** Whether [start, end) is a weekday (and month) in a date: "Sun Nov" in "Sun Nov 13 18:05:44 2016". */
export function isDateWords(text: string, start: number, end: number): boolean {
  const words = text.slice(start, end).split(/\s+/);
  if (!WEEKDAYS.has(words[0] as string) || !words.slice(1).every((w) => MONTH_SET.has(w))) return false;
  return DAY_AFTER.test(text.slice(end, end + 24));
}

/** "Didn't", "Can’t": a contraction is no word of a name. */
const CONTRACTION = /n['’]t$/u;

/**
 * An identifier written in camel case, three letters or more before the hump ("LogLevel", "CreatedBy",
 * "DevTools"); not a name that capitalises inside (McDonald, MacKenzie, DeVito, LaToya, VanDyke, JoAnn), nor a
 * nickname or an OCR'd word with a short first part ("VaGla", "CoTk").
 */
const CAMEL = /^(\p{Lu}\p{Ll}{2,})\p{Lu}/u;
const NAME_PREFIXES: ReadonlySet<string> = new Set([
  'Mc', 'Mac', 'De', 'Des', 'Di', 'Da', 'Du', 'Del', 'Della', 'Le', 'La', 'Lo', 'Van', 'Von', 'Ver', 'Fitz', 'St', 'Jo', 'Mary', 'Ann', 'Lee', 'Ray', 'Rose', 'Kay',
]);

export function isContraction(word: string): boolean {
  return CONTRACTION.test(word);
}

/**
 * One to four capitals joined to a capitalised common word: a product's, a tool's or a type's name ("CMake", "JUnit",
 * "XCode", "OSStatus", "URLSession", "WEBrick"), never a person's. Not one before a word that is none: posts write
 * handles so ("JAIhhooo", "SCatsx", "KKeneally"), and the Broad Twitter Corpus labels them people.
 */
const INITIAL_JOINED = /^\p{Lu}{1,4}(\p{Lu}\p{Ll}{2,})$/u;

/** Whether `word` is INITIAL_JOINED (`common`: whether a word is a common one in lower case). */
export function initialJoinedToWord(word: string, common: (w: string) => boolean): boolean {
  const rest = INITIAL_JOINED.exec(word)?.[1];
  return rest !== undefined && common(rest);
}

export function isIdentifierWord(word: string): boolean {
  if (CONTRACTION.test(word)) return true;
  const camel = CAMEL.exec(word);
  return camel !== null && !NAME_PREFIXES.has(camel[1] as string);
}

/**
 * Whether the text around `at` (the 16-24 KB about it; all of a text up to 24 KB) also writes `word` in lower case as a word of its
 * own: then the capitalised form is that common word opening a sentence, a table cell or a heading ("Fichero",
 * "Backspace"), not a name. Answers are kept per block: a table repeats its words ("Fichero" opens 60 cells of
 * suffixes(7)). Reading the whole text for every lone word halved the detector's speed on a 4 MB text.
 */
export function writtenLowerCase(text: string, word: string, at: number): boolean {
  const [from, to] = nearbyBounds(text, at);
  return lowerCaseAnswers.get(text, `${from}:${to}:${word}`, () => findLowerCase(text, word, from, to));
}

const BLOCK = 8192;

/**
 * Answers about the last text read, by key: a rule asks of the same text many times, for one word in one block after
 * another. Two string objects compare by content, so the text is kept from every call: the next call compares one
 * object with itself, at once. Kept only on change, a text equal to the last but another object (the detector's
 * joined copy of a text it read before, a conversation's message sent again) was read whole on every call: 257
 * calls, 36 ms per 2 MB.
 */
export class TextMemo {
  private text: string | undefined;
  private readonly answers = new Map<string, boolean>();

  get(text: string, key: string, find: () => boolean): boolean {
    if (text !== this.text) this.answers.clear();
    this.text = text;
    let answer = this.answers.get(key);
    if (answer === undefined) {
      answer = find();
      this.answers.set(key, answer);
    }
    return answer;
  }
}

const lowerCaseAnswers = new TextMemo();

/** The block of `text` around `at` that writtenLowerCase reads: for other rules that look near a word. */
export function nearby(text: string, at: number): string {
  const [from, to] = nearbyBounds(text, at);
  return from === 0 && to === text.length ? text : text.slice(from, to);
}

/** Where that block starts and ends: the same for every `at` in one block, so it can key a memo. */
export function nearbyBounds(text: string, at: number): readonly [number, number] {
  if (text.length <= 3 * BLOCK) return [0, text.length];
  const block = Math.floor(at / BLOCK);
  return [Math.max(0, (block - 1) * BLOCK), Math.min(text.length, (block + 2) * BLOCK)];
}

const WORD_CHAR = /[\p{L}\p{M}\p{N}_]/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
/** What may follow a word of its own ("el fichero,", "$logger->", "(ada)"); a full stop only at a sentence's end. */
const ENDS_WORD = new Set([' ', '\t', '\n', '\r', ',', ';', ':', '!', '?', '(', ')', '/', '"', "'", '»', '-']);

/** " at host dot tld" after a word: the word is a mailbox's local part, spelled out. */
const SPELLED_ADDRESS_AFTER = /^[ \t]+(?:at|AT|\[at\]|\(at\))[ \t]+[\w.-]+[ \t]+(?:dot|DOT|\[dot\]|\(dot\))[ \t]+\w/;

// A word in prose or code ("el fichero", "$logger->", ".ada"), not the first part of an address or a dotted name
// ("jade" in "jade.alglave@ens-lyon.fr"). Character tests, not slices: a short word occurs inside others thousands
// of times in a page ("esta" in "establecer").
function findLowerCase(text: string, word: string, from: number, to: number): boolean {
  const lower = word.toLowerCase();
  if (lower === word) return false;
  // Searched in the block alone: text.indexOf from `from` reads on to the text's end where the block has no match.
  const block = text.slice(from, to);
  for (let i = block.indexOf(lower); i !== -1; i = block.indexOf(lower, i + 1)) {
    const at = from + i;
    if (at > 0 && WORD_CHAR.test(text.charAt(at - 1))) continue;
    const end = at + lower.length;
    // A mailbox written out to fool harvesters: "<osamu at debian dot org>", "(anna at example dot com)".
    const next = text.charCodeAt(end);
    if ((next === 0x20 || next === 0x09) && SPELLED_ADDRESS_AFTER.test(text.slice(end, end + 48))) continue;
    if (end === text.length) return true;
    const after = text.charAt(end);
    if (ENDS_WORD.has(after)) return true;
    if (after === '.' && !LETTER_OR_DIGIT.test(text.charAt(end + 1))) return true;
  }
  return false;
}

/** A table's column rule, then blanks: a cell's start ("│ Fuentes para groff(1)", "| Fichero |"). */
const CELL_BEFORE = /[│┃|][ \t]*$/u;

/** Whether `at` opens a cell of a table drawn with box rules or pipes. */
export function opensTableCell(text: string, at: number): boolean {
  return CELL_BEFORE.test(text.slice(Math.max(0, at - 16), at));
}

/**
 * A man page's header or footer line, the page's name and section at both ends ("TAR(1)   General Commands Manual
 * TAR(1)", "tty(4)   Kernel Interfaces Manual   tty(4)"): the words between are the manual's title.
 */
const MAN_HEADER_LINE = /^[ \t]*([\w.:+-]+\(\d\w*\))[ \t]{2,}\S.*\S[ \t]{2,}\1[ \t]*$/u;

export function onManPageHeader(text: string, at: number): boolean {
  const from = text.lastIndexOf('\n', at) + 1;
  let to = text.indexOf('\n', at);
  if (to === -1) to = text.length;
  return to - from <= 200 && MAN_HEADER_LINE.test(text.slice(from, to));
}

/**
 * What software is and has, in the words that name it ("Mandrill API key", "Redux DevTools", "Roslyn component",
 * "Wildfire Plugin", "Fleep Webhooks", "Elastic Search handler"): a name right before one of these, or ending on
 * one, is a product's or a tool's, not a person's.
 */
const SOFTWARE_NOUNS: ReadonlySet<string> = new Set(
  `api apis sdk sdks cli plugin plugins handler handlers parser parsers server servers library libraries component
  components module modules package packages driver drivers extension extensions framework frameworks devtools
  repository repositories registry schema schemas webhook webhooks integration integrations endpoint endpoints
  daemon protocol runtime compiler toolchain bindings syntax syntaxes grammar grammars theme themes shell shells binding
  backend backends frontend frontends engine engines interpreter interpreters toolkit toolkits hub linker
  emulator simulator`.split(/\s+/).filter((w) => w !== ''),
);
const NEXT_WORD = /^[ \t]+([\p{L}]+)/u;

export function namesSoftware(text: string, start: number, end: number): boolean {
  const words = text.slice(start, end).split(/\s+/);
  const last = words[words.length - 1] as string;
  // A known given name opening it makes the last word a surname ("Clive Loader").
  if (words.length > 1 && SOFTWARE_NOUNS.has(last.toLowerCase()) && !GIVEN_NAME_SET.has(words[0] as string)) return true;
  const next = NEXT_WORD.exec(text.slice(end, end + 24))?.[1];
  // "Travis CI", in capitals only: Italian writes "ci" after names ("Mario ci ha detto").
  return next !== undefined && (SOFTWARE_NOUNS.has(next.toLowerCase()) || next === 'CI');
}

/**
 * A user-agent or server string: product tokens, a name, a slash and a version ("Mozilla/5.0 (Windows NT 10.0)
 * AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36", "Apache/2.4.41 (Ubuntu) OpenSSL/1.1.1f").
 * Two of them in the same quoted value or line make every word there a product's or a platform's, not a person's
 * ("like Gecko" is no name). One alone is not enough: "Anna Nowak wrote v/2" is prose.
 */
const PRODUCT_TOKEN = /(?:^|[\s(;"'])[A-Za-z][\w.-]*\/\d[\w.]*(?=[\s);"',]|$)/g;
const REACH = 400;

export function inProductTokens(text: string, at: number): boolean {
  // The quoted value or line around `at`, at most REACH characters either side; most text has no "/digit" there.
  const before = text.slice(Math.max(0, at - REACH), at);
  const after = text.slice(at, at + REACH);
  const cutBefore = Math.max(before.lastIndexOf('"'), before.lastIndexOf('\n'));
  const ends = [after.indexOf('"'), after.indexOf('\n')].filter((i) => i !== -1);
  const value = before.slice(cutBefore + 1) + after.slice(0, ends.length > 0 ? Math.min(...ends) : after.length);
  if (!value.includes('/')) return false;
  return (value.match(PRODUCT_TOKEN)?.length ?? 0) >= 2;
}

/** A Rust derive list or an attribute's arguments, open on the line up to here: "#[derive(Copy, Clone, Debug)]". */
const OPEN_DERIVE_BEFORE = /(?:#\[|derive\()[^()\]\n]*$/;

/** Whether `at` is inside a Rust derive list or attribute ("Clone" in "#[derive(Copy, Clone)]"): a trait, no name. */
export function inDeriveList(text: string, at: number): boolean {
  return OPEN_DERIVE_BEFORE.test(text.slice(Math.max(0, at - 80), at));
}

/**
 * A command-line option and its argument, then the gap before its description, alone on the line up to `at`:
 * "  --pointer=STR         Pointer to the current line", "-o, --output <file>\tOutput file". The description's
 * first word is capitalised as a sentence's, no name.
 */
const OPTION_BEFORE = /(?:^|\n)[ \t]*(?:-{1,2}\w[\w-]*(?:[= ](?:<[^>\n]+>|\[[^\]\n]+\]|[A-Z_]+|[a-z_]+))?(?:,[ \t]*)?)+(?:[ \t]{2,}|\t)$/;

/** Whether the word at `at` opens the description of a command-line option on the option's line. */
export function opensOptionDescription(text: string, at: number): boolean {
  return OPTION_BEFORE.test(text.slice(Math.max(0, at - 80), at));
}

/** A defined term's opening: "(the \"Waiver\")", "hereinafter 'Licensee'", "referred to as “Recipient”". */
const TERM_BEFORE = /(?:\bthe|\bhereinafter|\bas)[ \t]+["'“‘]$/iu;
const TERM_QUOTES: Readonly<Record<string, string>> = { '"': '"', "'": "'", '“': '”', '‘': '’' };

/** Whether [start, end) is a term a licence or contract defines in quotes ("the \"Waiver\""), no name. */
export function isDefinedTerm(text: string, start: number, end: number): boolean {
  const open = text.charAt(start - 1);
  const close = TERM_QUOTES[open];
  return close !== undefined && text.charAt(end) === close && TERM_BEFORE.test(text.slice(Math.max(0, start - 16), start));
}

/** A version in brackets after a word: a product's name and number ("(macOS 10.15)", "(Ubuntu 22.04)", "(v2.3)"). */
const VERSION_AFTER = /^[ \t]*\([ \t]*(?:\p{L}[\p{L}\p{N}+-]*[ \t]+)?v?\d+(?:\.\d+)+[ \t]*\)/u;
/** A product's name and major number, then an opening bracket, before a word: "Debian 11 (Bullseye)". */
const VERSION_BEFORE = /\p{L}[\p{L}\p{N}+-]*[ \t]+\d+(?:\.\d+)*[ \t]*\($/u;

/** An operating system right before a word: the word is its release ("macOS Catalina", "Ubuntu Jammy", "Android Pie"). */
const PLATFORM_BEFORE = /(?:^|[^\p{L}])(?:macOS|OS X|Ubuntu|Debian|Fedora|Android|iOS)[ \t]+$/u;

/**
 * Whether [start, end) is a release's code name: before its product and version in brackets ("remove Catalina
 * (macOS 10.15)"), in brackets after them ("Debian 11 (Bullseye)"), or after the system's name ("before macOS
 * Catalina"). A year alone is no version: "Smith (2019)" cites a person.
 */
export function namesARelease(text: string, start: number, end: number): boolean {
  if (VERSION_AFTER.test(text.slice(end, end + 40)) || PLATFORM_BEFORE.test(text.slice(Math.max(0, start - 16), start))) return true;
  return text.charAt(end) === ')' && VERSION_BEFORE.test(text.slice(Math.max(0, start - 40), start));
}

/** A version no time, date or score is: three parts, a "+" or ".x" ("Clang 3.5.2", "Ruby 2.7+", "Qt 5.x"). */
const SURE_VERSION_AFTER = /^[ \t]+v?\d+\.\d+(?:\.\d|\+|\.x\b)/;
/** Two parts with a one-digit minor ("Clang 3.4", "GCC 4.8"): a time or a date has two digits there ("14.30", "5.03."). */
const SHORT_VERSION_AFTER = /^[ \t]+v?\d+\.\d(?!\d)/;

/**
 * Whether the word ending at `end` is a product before its version ("GCC and Clang 3.4 - 15.0", "when Ruby 2.7+").
 * A name the lists know needs a version no time, date or score can be ("Termin mit Weber 14.30", "Smith 2.3
 * shows"); another word a short one too. No name labelled in the corpora the model reads is followed by a dotted
 * number (138,102 names).
 */
export function beforeVersion(text: string, end: number, listedName: boolean): boolean {
  // Read for every occurrence of a word in its block: a cheap test first (a blank, then a digit or "v").
  const c = text.charCodeAt(end);
  if (c !== 0x20 && c !== 0x09) return false;
  const after = text.slice(end, end + 12);
  return SURE_VERSION_AFTER.test(after) || (!listedName && SHORT_VERSION_AFTER.test(after));
}

/** A Markdown link's target right after its text: "](https://babeljs.io/)", the host's first label in group 1. */
const LINK_HOST_AFTER = /^\]\(https?:\/\/(?:www\.)?([\p{L}\p{N}-]+)[./]/u;

/**
 * Whether the one word at [start, end) is a Markdown link's text whose target is the word's own site ("[Babel](
 * https://babeljs.io/)", "[Vite](https://vite.dev)"): a project, not a person, whose links go to a profile or a
 * homepage under their full name ("[Mike](https://github.com/Mike-Leo-Smith)").
 */
export function linksToOwnSite(text: string, start: number, end: number): boolean {
  if (text.charAt(start - 1) !== '[') return false;
  const host = LINK_HOST_AFTER.exec(text.slice(end, end + 80))?.[1];
  return host !== undefined && host.toLowerCase().startsWith(text.slice(start, end).toLowerCase());
}
