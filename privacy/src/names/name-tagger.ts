import { margins as detectorMargins } from './detector-margins.js';
import { MAX_FEATURES, NameFeatureContext, TAG_B_PER, TAG_COUNT, TAG_I_PER, TAG_O, isScorable, isUpper, type NameLexicon, type WordInfo } from './name-features.js';
import type { NameModel } from './name-model.js';
import { tokeniseForNames, type NameTokens } from './name-tokens.js';
import { registersOfText } from './text-register.js';

/** What the tagger found: people's names, and the places, organisations and other names around them. */
export interface TaggedSpan {
  readonly kind: 'PER' | 'LOC' | 'ORG' | 'MISC';
  readonly start: number;
  readonly end: number;
  /** Tokens in the span. */
  readonly words: number;
  /** The margin of the chosen tag over the next best (trainer's units): of the first word, and the smallest of the rest. */
  readonly firstConfidence: number;
  readonly restConfidence: number;
  /** Where the second word starts (-1 for one word). */
  readonly secondStart: number;
  /** Whether the span opens a sentence or a line. */
  readonly opensSentence: boolean;
  /** Whether its first word, lower-cased, is in the model's lexicon of lower-case words ("Ieri", "Secondo"). */
  readonly firstCommon: boolean;
  /** How many of its words are in that lexicon ("Status Workflow": 2 of 2). */
  readonly commonWords: number;
}

const KINDS = ['PER', 'LOC', 'ORG', 'MISC'] as const;

/** Anything scoring weights from feature ids: the shipped quantised model, or the trainer's live weights. */
export interface TagScorer {
  /** The lexicon and clusters the features read (name-features.ts). */
  readonly lexicon: NameLexicon;
  /** Score units per trainer unit: margins are divided by it. */
  readonly scale: number;
  /** Scores of every tag for a word: its lexical features (info.lexical) plus `n` contextual ones. */
  score(info: WordInfo, context: Uint32Array, n: number, out: Float64Array): void;
}

/** Adds the weights of `features[0..n)` to `out`. */
export function addWeights(w: Int16Array | Float32Array, mask: number, features: Uint32Array, n: number, out: Float64Array): void {
  for (let k = 0; k < n; k++) {
    const base = ((features[k] as number) & mask) * TAG_COUNT;
    for (let t = 0; t < TAG_COUNT; t++) out[t] = (out[t] as number) + (w[base + t] as number);
  }
}

// A word's lexical scores are summed once per distinct word and kept (names repeat; each feature is a cache miss
// in a 19 MB table). Integer weights sum exactly in any order, so the cache changes no score.
const LEXICAL_CACHE_CAP = 50_000;

export function quantisedScorer(model: NameModel): TagScorer {
  const w = model.weights;
  const mask = model.buckets - 1;
  const lexicalScores = new Map<WordInfo, Float64Array>();
  return {
    lexicon: model.lexicon,
    scale: 1 / model.scale,
    score(info, context, n, out) {
      let lexical = lexicalScores.get(info);
      if (lexical === undefined) {
        if (lexicalScores.size >= LEXICAL_CACHE_CAP) lexicalScores.clear();
        lexical = new Float64Array(TAG_COUNT);
        addWeights(w, mask, info.lexical, info.lexical.length, lexical);
        lexicalScores.set(info, lexical);
      }
      out.set(lexical);
      addWeights(w, mask, context, n, out);
    },
  };
}

/** I-X only after B-X or I-X: a tagger's I-X after anything else opens a new span. */
function allowed(prevTag: number, tag: number): boolean {
  if (tag === TAG_O || tag % 2 === 1) return true;
  return prevTag === tag || prevTag === tag - 1;
}

/**
 * Greedy left-to-right tags for the words of `ctx`: unscorable words are O at no cost, so the work grows with
 * the capitalised words, not the text. `goesOn` (the detector's personGoesOn; training decodes with 0): a
 * capitalised word of two letters or more that the training text never writes in lower case, right after a
 * person's name and before no colon, read as O by less than this over I-PER, is taken as the name going on.
 */
export function tagWords(scorer: TagScorer, ctx: NameFeatureContext, margins?: Float64Array, goesOn = 0): Uint8Array {
  const n = ctx.words.length;
  const tags = new Uint8Array(n);
  const feats = new Uint32Array(MAX_FEATURES);
  const scores = new Float64Array(TAG_COUNT);
  let prev = TAG_O;
  let prev2 = TAG_O;
  for (let i = 0; i < n; i++) {
    if (ctx.sentenceStart[i] === 1) {
      prev = TAG_O;
      prev2 = TAG_O;
    }
    let tag = TAG_O;
    // A word left as '' is far from any capital (name-tokens.ts): never scorable.
    if ((ctx.words[i] as string) !== '' && isScorable(ctx.words, i, prev)) {
      const count = ctx.contextFeatures(i, prev, prev2, feats);
      scorer.score(ctx.info(i), feats, count, scores);
      let best = -Infinity;
      let second = -Infinity;
      for (let t = 0; t < TAG_COUNT; t++) {
        const s = scores[t] as number;
        if (!allowed(prev, t)) continue;
        if (s > best) {
          second = best;
          best = s;
          tag = t;
        } else if (s > second) second = s;
      }
      if (margins !== undefined) margins[i] = (best - second) / scorer.scale;
      if (goesOn > 0 && tag === TAG_O && (prev === TAG_B_PER || prev === TAG_I_PER) && ctx.sentenceStart[i] === 0) {
        const behind = (best - (scores[TAG_I_PER] as number)) / scorer.scale;
        const word = ctx.words[i] as string;
        // Not a letter alone ("… Szymczyk W maju") nor a field label ("Jaworski Karta: 5388 …").
        if (behind < goesOn && word.length > 1 && isUpper(word.charAt(0)) && ctx.info(i).common === 0 && ctx.words[i + 1] !== ':') {
          tag = TAG_I_PER;
          // Its margin is how far O led: a small one, so the rules that ask a sure name see an unsure word.
          if (margins !== undefined) margins[i] = behind;
        }
      }
    }
    tags[i] = tag;
    prev2 = prev;
    prev = tag;
  }
  return tags;
}

/** Tag spans over tokens, by the BIO tags. */
export function spansOf(
  tokens: Pick<NameTokens, 'starts' | 'ends' | 'sentenceStart'>,
  tags: Uint8Array,
  margins: Float64Array,
  ctx: NameFeatureContext,
): TaggedSpan[] {
  const out: TaggedSpan[] = [];
  let i = 0;
  while (i < tags.length) {
    const t = tags[i] as number;
    if (t === TAG_O) {
      i += 1;
      continue;
    }
    const kindIndex = (t - 1) >> 1;
    let j = i + 1;
    let rest = Infinity;
    let common = ctx.info(i).common;
    while (j < tags.length && tags[j] === kindIndex * 2 + 2) {
      rest = Math.min(rest, margins[j] as number);
      common += ctx.info(j).common;
      j += 1;
    }
    out.push({
      kind: KINDS[kindIndex] as TaggedSpan['kind'],
      start: tokens.starts[i] as number,
      end: tokens.ends[j - 1] as number,
      words: j - i,
      firstConfidence: margins[i] as number,
      restConfidence: rest,
      secondStart: j - i > 1 ? (tokens.starts[i + 1] as number) : -1,
      opensSentence: tokens.sentenceStart[i] === 1,
      firstCommon: ctx.info(i).common === 1,
      commonWords: common,
    });
    i = j;
  }
  return out;
}

/** Every name the tagger finds in `text`, offsets into `text`. */
export function tagNames(scorer: TagScorer, text: string): TaggedSpan[] {
  const tokens = tokeniseForNames(text);
  if (tokens.words.length === 0) return [];
  const margins = new Float64Array(tokens.words.length);
  const registers = scorer.lexicon.register === true ? registersOfText(text, tokens.starts, tokens.ends, tokens.sentenceStart) : undefined;
  const ctx = new NameFeatureContext(tokens.words, tokens.sentenceStart, scorer.lexicon, registers);
  return spansOf(tokens, tagWords(scorer, ctx, margins, detectorMargins.personGoesOn), margins, ctx);
}

/**
 * The tagger's reading of the second word of `sentence` (text that opens a sentence) with its first word taken as a
 * person's name: how far I-PER, the name going on, scores above the best tag that is no person's (O, a place, an
 * organisation, another name), in trainer's units; -Infinity when there is no such second word in the sentence.
 * Whatever the tagger made of the first word (a sentence's first word carries no capital's evidence: "Will"), this
 * asks whether the word after a given name reads as that person's surname ("Will Hendricks called": I-PER ahead by
 * 12-22 in five training draws) or as a place ("Will Berlin survive": B-LOC ahead by 20-45).
 */
export function personGoesOnMargin(scorer: TagScorer, sentence: string): number {
  const tokens = tokeniseForNames(sentence);
  if (tokens.words.length < 2 || tokens.sentenceStart[1] === 1 || !isScorable(tokens.words, 1, TAG_B_PER)) return -Infinity;
  const registers = scorer.lexicon.register === true ? registersOfText(sentence, tokens.starts, tokens.ends, tokens.sentenceStart) : undefined;
  const ctx = new NameFeatureContext(tokens.words, tokens.sentenceStart, scorer.lexicon, registers);
  const feats = new Uint32Array(MAX_FEATURES);
  const scores = new Float64Array(TAG_COUNT);
  scorer.score(ctx.info(1), feats, ctx.contextFeatures(1, TAG_B_PER, TAG_O, feats), scores);
  let other = -Infinity;
  for (let t = 0; t < TAG_COUNT; t++) if (t !== TAG_B_PER && t !== TAG_I_PER) other = Math.max(other, scores[t] as number);
  return ((scores[TAG_I_PER] as number) - other) / scorer.scale;
}
