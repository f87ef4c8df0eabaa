import { CAP_GRADES, GIVEN_NAME_SET, NAME_GRADES, SURNAME_SET } from '@gateway/privacy/internals';
import type { VocabularyClusters } from './word-clusters.js';

// The two grades clusters from unlabelled text carry (privacy/src/names/word-clusters.ts): they mean the same in
// every language, so a model learns them from the languages it has labels for and uses them in those it has none.

/**
 * Each vocabulary word's capitalisation grade: 0 not capitalised; 1 capitalised but only ever seen opening a
 * sentence; 2-6 the share of its mid-sentence uses written capitalised rather than in lower case (< 10%, < 50%,
 * < 90%, < 99%, the rest). "Kowalski" is 6, "Rose" lower, "Ieri" 1 or 2.
 */
export function capitalisationGrades(sentences: readonly (readonly string[])[], words: readonly string[]): Uint8Array {
  const mid = new Map<string, number>();
  for (const s of sentences) for (let i = 1; i < s.length; i++) mid.set(s[i] as string, (mid.get(s[i] as string) ?? 0) + 1);
  const grades = new Uint8Array(words.length);
  words.forEach((w, i) => {
    const c = w.charAt(0);
    if (c === c.toLowerCase() || c !== c.toUpperCase()) return;
    const capital = mid.get(w) ?? 0;
    const lower = w.toLowerCase() === w ? 0 : (mid.get(w.toLowerCase()) ?? 0);
    if (capital + lower === 0) {
      grades[i] = 1;
      return;
    }
    const share = capital / (capital + lower);
    grades[i] = share < 0.1 ? 2 : share < 0.5 ? 3 : share < 0.9 ? 4 : share < 0.99 ? 5 : 6;
  });
  if (grades.some((g) => g >= CAP_GRADES)) throw new Error('capitalisation grade out of range');
  return grades;
}

/** Share → 0-3: under 2%, 8%, 25%, more. */
function shareGrade(n: number, of: number): number {
  const share = of === 0 ? 0 : n / of;
  return share < 0.02 ? 0 : share < 0.08 ? 1 : share < 0.25 ? 2 : 3;
}

/**
 * Each fine cluster's name grade: of its capitalised words, the share the house's given-name list holds (0-3) × 4
 * + the share its surname list holds (0-3). The lists are the detector's own (Faker's locales, MIT), no labels.
 */
export function nameGrades(v: VocabularyClusters, capGrades: Uint8Array): Uint8Array {
  const capitalised = new Uint32Array(v.fineCount);
  const given = new Uint32Array(v.fineCount);
  const surname = new Uint32Array(v.fineCount);
  v.words.forEach((w, i) => {
    if ((capGrades[i] as number) === 0) return;
    const c = v.fine[i] as number;
    capitalised[c] += 1;
    if (GIVEN_NAME_SET.has(w)) given[c] += 1;
    if (SURNAME_SET.has(w)) surname[c] += 1;
  });
  const grades = new Uint8Array(v.fineCount);
  for (let c = 0; c < v.fineCount; c++) grades[c] = shareGrade(given[c] as number, capitalised[c] as number) * 4 + shareGrade(surname[c] as number, capitalised[c] as number);
  if (grades.some((g) => g >= NAME_GRADES)) throw new Error('name grade out of range');
  return grades;
}
