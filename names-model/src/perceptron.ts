import { MAX_FEATURES, NameFeatureContext, TAG_COUNT, TAG_O, isScorable, type NameLexicon } from '@gateway/privacy/internals';
import type { NameModel } from '@gateway/privacy';
import { addWeights, type TagScorer } from '@gateway/privacy/internals';
import type { WordInfo } from '@gateway/privacy/internals';
import type { LabelledSentence } from './read-corpus.js';

/**
 * An averaged perceptron over the proxy's hashed name features, decoded greedily left to right with the
 * predicted previous tags, exactly as the proxy decodes (so training sees the proxy's own mistakes). Averages are
 * kept lazily (a per-weight timestamp), the classic trick that makes averaging cost nothing per step.
 */
export class AveragedPerceptron implements TagScorer {
  readonly scale = 1;
  readonly lexicon: NameLexicon;
  private readonly mask: number;
  private readonly weights: Float32Array;
  private readonly totals: Float64Array;
  private readonly stamps: Int32Array;
  private step = 0;

  constructor(
    readonly buckets: number,
    lexicon: NameLexicon,
    /**
     * Whether training guesses as the proxy decodes (no I-X after anything but B-X or I-X), and, where a guessed
     * tag before has made the gold I-X impossible, learns O there: the span was missed at its start and is one miss
     * whatever comes next, while a span opened in its middle would add a false one (the loss-minimising tag, a
     * dynamic oracle's choice). Off: the unconstrained argmax against the gold tag, as models before it were trained.
     */
    private readonly constrained = false,
  ) {
    this.lexicon = lexicon;
    this.mask = buckets - 1;
    this.weights = new Float32Array(buckets * TAG_COUNT);
    this.totals = new Float64Array(buckets * TAG_COUNT);
    this.stamps = new Int32Array(buckets * TAG_COUNT);
  }

  score(info: WordInfo, context: Uint32Array, n: number, out: Float64Array): void {
    out.fill(0);
    addWeights(this.weights, this.mask, info.lexical, info.lexical.length, out);
    addWeights(this.weights, this.mask, context, n, out);
  }

  private update(features: Uint32Array, n: number, gold: number, guess: number): void {
    for (let k = 0; k < n; k++) {
      const base = ((features[k] as number) & this.mask) * TAG_COUNT;
      this.bump(base + gold, 1);
      this.bump(base + guess, -1);
    }
  }

  private bump(index: number, delta: number): void {
    this.totals[index] = (this.totals[index] as number) + (this.step - (this.stamps[index] as number)) * (this.weights[index] as number);
    this.stamps[index] = this.step;
    this.weights[index] = (this.weights[index] as number) + delta;
  }

  /**
   * One pass over `sentences` in the given order; returns how many scored words it got wrong. A sentence with
   * partial labels (`trusted`) is learnt from at its trusted words alone: elsewhere the best path consistent with
   * its labels is the model's own guess, so a latent-structure update there is none, and the model's own errors
   * and misses on silver text are not trained back in.
   */
  trainEpoch(sentences: readonly LabelledSentence[], order: Uint32Array): number {
    const feats = new Uint32Array(MAX_FEATURES);
    const scores = new Float64Array(TAG_COUNT);
    let errors = 0;
    for (const s of order) {
      const sentence = sentences[s] as LabelledSentence;
      const start = new Uint8Array(sentence.words.length);
      start[0] = 1;
      const ctx = new NameFeatureContext(sentence.words, start, this.lexicon);
      let prev = TAG_O;
      let prev2 = TAG_O;
      for (let i = 0; i < sentence.words.length; i++) {
        this.step += 1;
        let gold = sentence.tags[i] as number;
        if (this.constrained && !allowedAfter(prev, gold)) gold = TAG_O;
        const learn = sentence.trusted === undefined || sentence.trusted[i] === 1;
        let guess = TAG_O;
        if (isScorable(sentence.words, i, prev)) {
          const n = ctx.contextFeatures(i, prev, prev2, feats);
          const info = ctx.info(i);
          this.score(info, feats, n, scores);
          let best = -Infinity;
          for (let t = 0; t < TAG_COUNT; t++) {
            if (this.constrained && !allowedAfter(prev, t)) continue;
            if ((scores[t] as number) > best) {
              best = scores[t] as number;
              guess = t;
            }
          }
          if (guess !== gold && learn) {
            errors += 1;
            this.update(info.lexical, info.lexical.length, gold, guess);
            this.update(feats, n, gold, guess);
          }
        }
        prev2 = prev;
        prev = guess;
      }
    }
    return errors;
  }

  /** The averaged weights, in the trainer's units. */
  averagedWeights(): Float32Array {
    const n = this.weights.length;
    const avg = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      const total = (this.totals[i] as number) + (this.step - (this.stamps[i] as number)) * (this.weights[i] as number);
      avg[i] = total / Math.max(1, this.step);
    }
    return avg;
  }

  /** The averaged weights, quantised to 16 bits: what the proxy ships. */
  averagedModel(info: Record<string, unknown>): NameModel {
    return quantisedModel(this.buckets, this.averagedWeights(), this.lexicon, info);
  }
}

/** I-X only after B-X or I-X: what the proxy's decoder allows (name-tagger.ts). */
function allowedAfter(prevTag: number, tag: number): boolean {
  return tag === TAG_O || tag % 2 === 1 || prevTag === tag || prevTag === tag - 1;
}

/** Weights quantised to int16, the largest to ±32767. */
export function quantisedModel(buckets: number, weights: Float32Array, lexicon: NameLexicon, info: Record<string, unknown>): NameModel {
  let max = 0;
  for (let i = 0; i < weights.length; i++) if (Math.abs(weights[i] as number) > max) max = Math.abs(weights[i] as number);
  const scale = max === 0 ? 1 : max / 32767;
  const out = new Int16Array(weights.length);
  for (let i = 0; i < weights.length; i++) out[i] = Math.round((weights[i] as number) / scale);
  return { buckets, scale, weights: out, lexicon, info };
}

/** mulberry32: a small seeded generator, so every shuffle is the same run after run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function shuffledOrder(n: number, random: () => number): Uint32Array {
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const tmp = order[i] as number;
    order[i] = order[j] as number;
    order[j] = tmp;
  }
  return order;
}
