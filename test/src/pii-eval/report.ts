import type { PiiType } from '@gateway/proxy/privacy';
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
