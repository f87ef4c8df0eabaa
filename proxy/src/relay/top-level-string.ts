const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COLON = 0x3a;

/** Index just past the string whose opening quote is at `open`, or -1 when it does not end. */
function stringEnd(text: string, open: number): number {
  for (let i = open + 1; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) i += 1;
    else if (c === QUOTE) return i + 1;
  }
  return -1;
}

/**
 * `text` (a JSON object, already known to parse) with the string value of its top-level member `key` replaced
 * by `value`, every other byte unchanged; undefined when there is no such member with a string value. Only
 * members of the outermost object count: the same key nested anywhere (a tool's input, say) is skipped.
 * The scan stops at the member, so its cost is the length of what precedes it (the vendor puts `model` fourth).
 */
export function replaceTopLevelString(text: string, key: string, value: string): string | undefined {
  const wanted = JSON.stringify(key);
  let depth = 0;
  let expectKey = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (end === -1) return undefined;
      if (depth === 1 && expectKey && text.slice(i, end) === wanted) {
        let j = end;
        while (j < text.length && text.charCodeAt(j) !== COLON) j += 1;
        j += 1;
        while (j < text.length && /\s/.test(text[j] as string)) j += 1;
        if (text.charCodeAt(j) !== QUOTE) return undefined;
        const valueEnd = stringEnd(text, j);
        if (valueEnd === -1) return undefined;
        return `${text.slice(0, j)}${JSON.stringify(value)}${text.slice(valueEnd)}`;
      }
      expectKey = false;
      i = end - 1;
    } else if (c === OPEN_OBJECT) {
      depth += 1;
      expectKey = depth === 1;
    } else if (c === OPEN_ARRAY) {
      depth += 1;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth -= 1;
    } else if (c === 0x2c /* , */ && depth === 1) {
      expectKey = true;
    }
  }
  return undefined;
}
