import { forEachValueAfterContext } from '../context.js';
import { RANK_CONTEXT } from '../recognizer.js';
import type { Candidate, Recognizer } from '../recognizer.js';

// UK passport number: nine digits with no check digit, indistinguishable from any other 9-digit id, so
// it is only reported shortly after the word "passport".

const CONTEXT_RE = /\bpassport\b/gi;
const VALUE_RE = /(?<![\w+@.\/\-]|\d[ .\-])\d{9}(?![\w@]|[.,\-\/]?\d)/g;

function find(text: string, out: Candidate[]): void {
  forEachValueAfterContext(text, CONTEXT_RE, VALUE_RE, 32, 9, (start, m) => {
    out.push({ type: 'UK_PASSPORT', start, end: start + m[0].length, rank: RANK_CONTEXT });
  });
}

export const ukPassportRecognizer: Recognizer = { name: 'uk-passport', find };
