import type { PiiType } from '@gateway/privacy';
import { metricsOf } from './score.js';
import type { Scores } from './score.js';

function fixed(n: number | null): string {
  return n === null ? '   n/a' : n.toFixed(3).padStart(6);
}

/** A plain-text table of per-type counts and metrics. */
export function formatScores(title: string, scores: Scores, coreTypes: ReadonlySet<PiiType>): string {
  const lines = [title, `${'type'.padEnd(26)}  gold  pred    tp    fp    fn  precision  recall      f1  exact-f1`];
  for (const [type, t] of scores) {
    const m = metricsOf(t);
    const mark = coreTypes.has(type) ? '' : ' (extra)';
    lines.push(
      [
        `${type}${mark}`.padEnd(26),
        String(t.tp + t.fn).padStart(5),
        String(t.tp + t.fp).padStart(5),
        String(t.tp).padStart(5),
        String(t.fp).padStart(5),
        String(t.fn).padStart(5),
        fixed(m.precision).padStart(10),
        fixed(m.recall).padStart(7),
        fixed(m.f1).padStart(7),
        fixed(m.exactF1).padStart(9),
      ].join(' '),
    );
  }
  return `${lines.join('\n')}\n`;
}

/** One row per type, one column of precision/recall per language; `only` limits the rows to one type. */
export function formatLanguageMatrix<L extends string>(title: string, byLang: ReadonlyMap<L, Scores>, only?: PiiType): string {
  const langs = [...byLang.keys()];
  const types = new Set<PiiType>();
  for (const scores of byLang.values()) for (const type of scores.keys()) if (only === undefined || type === only) types.add(type);
  const lines = [title, `${'type'.padEnd(20)}${langs.map((l) => l.padStart(14)).join('')}`];
  for (const type of types) {
    const cells = langs.map((lang) => {
      const t = byLang.get(lang)?.get(type);
      if (t === undefined) return '-'.padStart(14);
      const m = metricsOf(t);
      return `${fixed(m.precision).trim()}/${fixed(m.recall).trim()}`.padStart(14);
    });
    lines.push(`${type.padEnd(20)}${cells.join('')}`);
  }
  return `${lines.join('\n')}\n`;
}
