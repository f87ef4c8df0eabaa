// The agent-text section of `npm run eval:pii`: false PERSON findings per 100 KB on real agent-shaped text (code,
// logs, stack traces, diffs, JSON, man pages in seven languages) and the recall of the real people's names in it,
// dev and held-out apart, one column group per model. A PERSON finding that overlaps no labelled name is false; a
// labelled name is found when a PERSON finding overlaps it.
import { detect, useNameModel } from '@gateway/privacy';
import { AGENT_TEXT_BUNDLE, AGENT_TEXT_DIR, agentTextMaterialised, loadAgentTextSet, rowOf } from './agent-text-set.js';
import type { AgentTextDoc, AgentTextPart } from './agent-text-set.js';
import type { EvalModel } from './real-text.js';

interface Span {
  readonly start: number;
  readonly end: number;
}

const overlaps = (a: Span, b: Span): boolean => a.start < b.end && b.start < a.end;

const PARTS: readonly AgentTextPart[] = ['dev', 'heldout'];
const ROWS = ['code', 'log', 'trace', 'diff', 'json', 'man en', 'man de', 'man fr', 'man es', 'man it', 'man nl', 'man pl'];

interface Tally {
  bytes: number;
  falsePerson: number;
  namesFound: number;
  names: number;
}

const emptyTally = (): Tally => ({ bytes: 0, falsePerson: 0, namesFound: 0, names: 0 });

/** One model's outcome: a tally per part and row, and each false PERSON string with its count per part. */
interface ModelOutcome {
  readonly tallies: Map<string, Tally>;
  readonly falseValues: Map<AgentTextPart, Map<string, number>>;
  readonly errors: string[];
}

const key = (part: AgentTextPart, row: string): string => `${part}|${row}`;

/** Which parts' errors to show in context: none, both, or the dev part alone. */
type ErrorParts = 'none' | 'all' | 'dev';

function scoreModel(docs: readonly AgentTextDoc[], showErrors: ErrorParts): ModelOutcome {
  const tallies = new Map<string, Tally>();
  const falseValues = new Map<AgentTextPart, Map<string, number>>(PARTS.map((p) => [p, new Map<string, number>()]));
  const errors: string[] = [];
  for (const doc of docs) {
    const found = detect(doc.text).filter((f) => f.type === 'PERSON' && !doc.examples.some((x) => overlaps(x, f)));
    // A name cut in two by a line break is often found as two findings: both are on the name, neither is false.
    const falseFound = found.filter((f) => !doc.spans.some((g) => overlaps(g, f)));
    const missed = doc.spans.filter((g) => !found.some((f) => overlaps(g, f)));
    const t = { fp: falseFound.length, tp: doc.spans.length - missed.length, fn: missed.length };
    for (const row of [rowOf(doc), 'all']) {
      const tally = tallies.get(key(doc.part, row)) ?? emptyTally();
      tally.bytes += Buffer.byteLength(doc.text);
      tally.falsePerson += t.fp;
      tally.namesFound += t.tp;
      tally.names += t.tp + t.fn;
      tallies.set(key(doc.part, row), tally);
    }
    const values = falseValues.get(doc.part) as Map<string, number>;
    for (const e of [...falseFound.map((x) => ({ ...x, kind: 'fp' })), ...missed.map((x) => ({ ...x, kind: 'fn' }))]) {
      const value = doc.text.slice(e.start, e.end).replace(/\s+/g, ' ');
      if (e.kind === 'fp') values.set(`${rowOf(doc)}: ${value}`, (values.get(`${rowOf(doc)}: ${value}`) ?? 0) + 1);
      if (showErrors === 'none' || (showErrors === 'dev' && doc.part !== 'dev')) continue;
      const before = doc.text.slice(Math.max(0, e.start - 40), e.start);
      const after = doc.text.slice(e.end, e.end + 30);
      errors.push(`  ${doc.part} ${e.kind === 'fp' ? 'false' : 'missed'} (${doc.id}): ${JSON.stringify(before)} [${value}] ${JSON.stringify(after)}`);
    }
  }
  return { tallies, falseValues, errors };
}

function cell(t: Tally): string {
  const per100k = t.bytes === 0 ? 'n/a' : ((100 * 1024 * t.falsePerson) / t.bytes).toFixed(2);
  const recall = t.names === 0 ? '   -' : (t.namesFound / t.names).toFixed(3);
  return `${per100k.padStart(6)} ${`(${t.falsePerson})`.padStart(6)} ${recall} ${`${t.namesFound}/${t.names}`.padStart(9)}`;
}

export interface AgentTextOptions {
  readonly models: readonly EvalModel[];
  readonly dir?: string;
  readonly showErrors?: boolean;
  /** Errors in context of the dev part alone (the held-out part stays unread). */
  readonly devErrors?: boolean;
  /** How many of the most frequent false PERSON strings to list per model and part. */
  readonly top?: number;
}

/** The agent-text tables; each model installed in turn (the caller restores its own after). */
export function evaluateAgentText(options: AgentTextOptions): string {
  const dir = options.dir ?? AGENT_TEXT_DIR;
  if (!agentTextMaterialised(dir)) return `agent text: skipped, ${AGENT_TEXT_BUNDLE} is not materialised in ${dir} (npm run corpora:agent-text; its README.md)\n`;
  const docs = loadAgentTextSet(dir);
  const outcomes = options.models.map((m) => {
    useNameModel(m.model);
    return scoreModel(docs, options.showErrors === true ? 'all' : options.devErrors === true ? 'dev' : 'none');
  });
  const bytes = (part: AgentTextPart): number => docs.filter((d) => d.part === part).reduce((n, d) => n + Buffer.byteLength(d.text), 0);
  const lines = [
    `agent text (test/fixtures/agent-text: ${docs.length} documents, ${(bytes('dev') / 1024).toFixed(0)} KB dev, ${(bytes('heldout') / 1024).toFixed(0)} KB held out):`,
    'false PERSON findings per 100 KB (count), and the labelled real names found (recall, found/labelled); the dev part',
    'may be tuned on, the held-out part only reported. Target: held-out all ≤ 0.30 per 100 KB.',
  ];
  for (const part of PARTS) {
    lines.push(`${part === 'dev' ? 'dev' : 'held-out'}:`, `${'row'.padEnd(8)}${'KB'.padStart(6)}  ${options.models.map((m) => m.label.slice(0, 30).padEnd(32)).join('')}`);
    for (const row of [...ROWS, 'all']) {
      const first = outcomes[0]?.tallies.get(key(part, row));
      if (first === undefined) continue;
      lines.push(`${row.padEnd(8)}${(first.bytes / 1024).toFixed(0).padStart(6)}  ${outcomes.map((o) => cell(o.tallies.get(key(part, row)) ?? emptyTally()).padEnd(32)).join('')}`);
    }
  }
  const top = options.top ?? 12;
  options.models.forEach((m, i) => {
    const outcome = outcomes[i] as ModelOutcome;
    for (const part of PARTS) {
      const values = [...(outcome.falseValues.get(part) ?? new Map<string, number>())].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
      if (values.length === 0) continue;
      lines.push(`most frequent false PERSON findings, ${m.label}, ${part}: ${values.slice(0, top).map(([v, n]) => `${JSON.stringify(v)} ${n}`).join(', ')}`);
    }
    if (outcome.errors.length > 0) lines.push(`errors, ${m.label}:`, ...outcome.errors);
  });
  return `${lines.join('\n')}\n`;
}
