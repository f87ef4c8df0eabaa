import { tokeniseForNames } from '@gateway/privacy/internals';

/**
 * A paragraph cut into sentences of words exactly as the tagger's tokeniser cuts text at run time (tokens and
 * sentence starts), so a cluster is looked up by the very strings the tagger will see.
 */
export function sentencesOf(paragraph: string): string[][] {
  const t = tokeniseForNames(paragraph);
  const out: string[][] = [];
  let current: string[] = [];
  for (let i = 0; i < t.starts.length; i++) {
    if (t.sentenceStart[i] === 1 && current.length > 0) {
      out.push(current);
      current = [];
    }
    current.push(paragraph.slice(t.starts[i] as number, t.ends[i] as number));
  }
  if (current.length > 0) out.push(current);
  return out;
}
