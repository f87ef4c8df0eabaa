// The register of a sentence (a line of code, a log or diff line, or prose), read from its tokens alone: how many
// look like software (code punctuation, snake_case's underscore, camelCase, letters run into digits). A model
// trained with register features (`NameLexicon.register`) crosses a few of its word features with it, so what
// software text teaches ("a capitalised unknown word there is no person") is learnt for software lines, and
// prose keeps its own weights. One pass over the tokens' characters, only for such a model.

/** Register values: prose (no software token), one, several, or mostly software tokens (a third or more). */
export const REGISTERS = 4;

// Single-character tokens that prose rarely writes and code, paths, URLs, diffs and logs write often.
const CODE_PUNCT = new Uint8Array(128);
for (const c of '{}[];=<>/\\|$#@_`~^*+&') CODE_PUNCT[c.charCodeAt(0)] = 1;

function isLowerAscii(c: number): boolean {
  return c >= 0x61 && c <= 0x7a;
}
function isUpperAscii(c: number): boolean {
  return c >= 0x41 && c <= 0x5a;
}
function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** Whether the token `text[start, end)` looks like software: code punctuation, camelCase ("useState"), "utf8". */
export function isSoftwareToken(text: string, start: number, end: number): boolean {
  const first = text.charCodeAt(start);
  if (end - start === 1) return first < 128 && CODE_PUNCT[first] === 1;
  let letters = false;
  let digits = false;
  for (let k = start; k < end; k++) {
    const c = text.charCodeAt(k);
    if (isDigit(c)) digits = true;
    else if (isLowerAscii(c) || isUpperAscii(c)) letters = true;
    // A lower-case start then a capital inside: camelCase, never a name's shape.
    if (k > start && isUpperAscii(c) && isLowerAscii(first)) return true;
  }
  return letters && digits;
}

function registerOf(software: number, tokens: number): number {
  if (software === 0) return 0;
  if (software === 1) return 1;
  return software * 3 < tokens ? 2 : 3;
}

/** Each token's register: its sentence's, from per-token software flags and the sentence starts. */
function spread(isSoftware: (i: number) => boolean, count: number, sentenceStart: Uint8Array): Uint8Array {
  const out = new Uint8Array(count);
  let from = 0;
  let software = 0;
  for (let i = 0; i < count; i++) {
    if (sentenceStart[i] === 1 && i > from) {
      out.fill(registerOf(software, i - from), from, i);
      from = i;
      software = 0;
    }
    if (isSoftware(i)) software += 1;
  }
  out.fill(registerOf(software, count - from), from, count);
  return out;
}

/** Each token's register, from the text and the tokens' offsets (the detector's path: far words are '' there). */
export function registersOfText(text: string, starts: readonly number[], ends: readonly number[], sentenceStart: Uint8Array): Uint8Array {
  return spread((i) => isSoftwareToken(text, starts[i] as number, ends[i] as number), starts.length, sentenceStart);
}

/** The same from the words themselves (the trainer's path: every word of a labelled sentence is there). */
export function registersOfWords(words: readonly string[], sentenceStart: Uint8Array): Uint8Array {
  return spread((i) => {
    const w = words[i] as string;
    return w !== '' && isSoftwareToken(w, 0, w.length);
  }, words.length, sentenceStart);
}
