import { NAME_TAGS } from '@gateway/privacy/internals';
import type { LabelledSentence } from './read-corpus.js';

// GUM (Georgetown University Multilayer corpus) marks every mention of an entity, named or not, in the CoNLL-U
// MISC column as CorefUD brackets: `Entity=(12-person-new-…-Andy_Warhol` opens mention 12 on this word, `12)`
// closes it, `(13-place-…)` is a one-word mention. The tagger learns names: a word is part of a person's, place's
// or organisation's name when the innermost mention holding it is of that type and the word is a singular proper
// noun (XPOS NNP). So "his mother" and "the Australian government" give nothing, "Andy Warhol" and "Sydney" do, a
// plural group ("Muslims", "Thais": NNPS) is none, and a title opening a person's name stays outside it
// ("President Obama" gives "Obama"), as CoNLL and Universal NER label them. A name inside a place's or an
// organisation's name is part of it ("the Andy Warhol Museum", "the Sydney Institute": one organisation), as there.

const GUM_TYPES: Readonly<Record<string, string>> = { person: 'PER', place: 'LOC', organization: 'ORG' };
/** Lower-case particles inside one person's name ("Peter the Great", "Ludwig van Beethoven"). */
const NAME_PARTICLES = new Set(['the', 'of', 'de', 'da', 'di', 'du', 'van', 'von', 'der', 'den', 'la', 'le', 'bin', 'ibn', 'al', 'el', 'y']);
/** Titles and ranks GUM tags NNP inside a person's mention; the name is what follows. */
const TITLES = new Set([
  'mr', 'mrs', 'ms', 'dr', 'doctor', 'professor', 'prof', 'president', 'prime', 'minister', 'general', 'major', 'captain',
  'colonel', 'lieutenant', 'sergeant', 'admiral', 'commander', 'judge', 'justice', 'senator', 'governor', 'mayor',
  'king', 'queen', 'prince', 'princess', 'emperor', 'empress', 'sheikh', 'sultan', 'lord', 'lady', 'sir', 'baron',
  'duke', 'duchess', 'count', 'countess', 'chief', 'saint', 'st', 'pope', 'bishop', 'archbishop', 'cardinal', 'rev',
  'father', 'sister', 'brother', 'secretary', 'chancellor', 'gen', 'col', 'capt', 'lt', 'sgt', 'sen', 'gov', 'rep',
]);

const TAG_INDEX = new Map<string, number>(NAME_TAGS.map((t, i) => [t, i]));

interface Mention {
  readonly id: string;
  readonly type: string;
}

/** The mentions a word's `Entity=` value opens (one-word ones closed at once) and the ids it closes, in order. */
function gumMentionEvents(value: string): { opens: { mention: Mention; closedHere: boolean }[]; closes: string[] } {
  const opens: { mention: Mention; closedHere: boolean }[] = [];
  const closes: string[] = [];
  let i = 0;
  while (i < value.length) {
    if (value[i] === '(') {
      let j = i + 1;
      while (j < value.length && value[j] !== '(' && value[j] !== ')') j++;
      const m = /^(\d+)-([a-z]+)/.exec(value.slice(i + 1, j));
      if (m === null) throw new Error(`GUM: no mention id and type in "${value}"`);
      const closedHere = value[j] === ')';
      opens.push({ mention: { id: m[1] as string, type: m[2] as string }, closedHere });
      i = closedHere ? j + 1 : j;
    } else {
      const m = /^(\d+)\)/.exec(value.slice(i));
      if (m === null) throw new Error(`GUM: unreadable mention brackets "${value}"`);
      closes.push(m[1] as string);
      i += m[0].length;
    }
  }
  return { opens, closes };
}

function removeMention(stack: Mention[], id: string): void {
  for (let k = stack.length - 1; k >= 0; k--) {
    if (stack[k]?.id === id) {
      stack.splice(k, 1);
      return;
    }
  }
  throw new Error(`GUM: mention ${id} closed but never opened`);
}

interface Word {
  readonly form: string;
  readonly xpos: string;
  /** The mentions open on this word, outermost first. */
  readonly mentions: readonly Mention[];
}

const titleWord = (w: Word | undefined): boolean => TITLES.has((w?.form ?? '').toLowerCase().replace(/\.$/, ''));

/** Tags words [start, end) as one name of the given type, a person's opening titles left out. */
function tagName(words: readonly Word[], tags: Uint8Array, start: number, end: number, type: string): void {
  let from = start;
  if (type === 'PER') while (from < end && titleWord(words[from])) from++;
  for (let k = from; k < end; k++) tags[k] = TAG_INDEX.get(`${k === from ? 'B' : 'I'}-${type}`) ?? 0;
}

/** One sentence's words to IOB2 tags by the rules above. */
function tagSentence(words: readonly Word[]): Uint8Array {
  const tags = new Uint8Array(words.length);
  const proper = (w: Word | undefined): boolean => w?.xpos === 'NNP';
  const inner = (w: Word | undefined): Mention | undefined => w?.mentions[w.mentions.length - 1];
  // A proper noun inside some mention: what a name is made of.
  const named = (w: Word | undefined): boolean => proper(w) && inner(w) !== undefined;
  let i = 0;
  while (i < words.length) {
    if (!named(words[i])) {
      i++;
      continue;
    }
    // A run of proper nouns, a particle between two of them ("Peter the Great", "Bank of England").
    let end = i + 1;
    for (;;) {
      if (named(words[end])) end++;
      else if (NAME_PARTICLES.has(words[end]?.form ?? '') && named(words[end + 1])) end += 2;
      else break;
    }
    const run = words.slice(i, end);
    // The run is one place's or organisation's name when such a mention holds all of it and is the innermost
    // mention of one of its words ("Museum" in "the Andy Warhol Museum"); "Warhol 's studio" stays a person's.
    const holder = run
      .map(inner)
      .find((m) => m !== undefined && (m.type === 'place' || m.type === 'organization') && run.every((w) => w.mentions.includes(m)));
    if (holder !== undefined) tagName(words, tags, i, end, GUM_TYPES[holder.type] as string);
    else {
      // Otherwise each innermost mention's proper nouns are its own name.
      let k = i;
      while (k < end) {
        const m = inner(words[k]);
        let stop = k + 1;
        const sameName = (w: Word | undefined): boolean => inner(w) === m && proper(w);
        while (stop < end && (sameName(words[stop]) || (NAME_PARTICLES.has(words[stop]?.form ?? '') && sameName(words[stop + 1])))) {
          stop++;
        }
        const type = m === undefined || !proper(words[k]) ? undefined : GUM_TYPES[m.type];
        if (type !== undefined) tagName(words, tags, k, stop, type);
        k = stop;
      }
    }
    i = end;
  }
  return tags;
}

/** A GUM `dep/*.conllu` file: its sentences, words as written (multi-word tokens' parts, no empty nodes). */
export function parseGumConllu(raw: string): LabelledSentence[] {
  const out: LabelledSentence[] = [];
  const stack: Mention[] = [];
  let words: Word[] = [];
  const flush = (): void => {
    if (words.length > 0) out.push({ words: words.map((w) => w.form), tags: tagSentence(words) });
    words = [];
  };
  for (const line of raw.split(/\r?\n/)) {
    if (line.trim() === '') {
      flush();
      continue;
    }
    if (line.startsWith('#')) continue;
    const cols = line.split('\t');
    if (!/^\d+$/.test(cols[0] ?? '')) continue;
    const entity = /(?:^|\|)Entity=([^|]*)/.exec(cols[9] ?? '')?.[1];
    const events = entity === undefined ? { opens: [], closes: [] } : gumMentionEvents(entity);
    for (const o of events.opens) stack.push(o.mention);
    words.push({ form: cols[1] ?? '', xpos: cols[4] ?? '', mentions: [...stack] });
    for (const id of events.closes) removeMention(stack, id);
    for (const o of events.opens) if (o.closedHere) removeMention(stack, o.mention.id);
  }
  flush();
  if (stack.length > 0) throw new Error(`GUM: ${stack.length} mentions never closed`);
  return out;
}
