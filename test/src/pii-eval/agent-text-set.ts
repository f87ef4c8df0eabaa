// The agent-text set (test/fixtures/agent-text/): 6.6 MB of code, logs, stack traces, diffs, JSON and man pages
// from permissively licensed sources, with the real people's names in it labelled as PERSON. The bundle of texts
// is materialised locally (npm run corpora:agent-text; git ignores it), the labels and the manifest are committed. Split by a seeded
// hash of each document's group (a file, a commit or a log: its chunks stay together) into a dev part, which the
// detector's rules may be tuned on, and a held-out part, which is only reported.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import type { GoldSpan, LabelledText } from './labelled-text.js';

// This file is test/dist/src/pii-eval/agent-text-set.js once built: the fixtures are three levels up, in test/.
export const AGENT_TEXT_DIR = fileURLToPath(new URL('../../../fixtures/agent-text', import.meta.url));
export const AGENT_TEXT_SEED = 20261128;
/** The materialised bundle's file name in its directory: one JSON line per document. */
export const AGENT_TEXT_BUNDLE = 'agent-text.jsonl.gz';
/** Share of groups held out: half, so the held-out part is large enough (≈ 3 MB) for a rate of 0.3 per 100 KB. */
export const HELD_OUT_SHARE = 0.5;

export type AgentTextPart = 'dev' | 'heldout';
export type AgentTextKind = 'code' | 'log' | 'trace' | 'diff' | 'json' | 'man';

export interface AgentTextDoc extends LabelledText {
  readonly id: string;
  readonly group: string;
  readonly kind: AgentTextKind;
  /** The programming language, log kind or (for man pages) the natural language. */
  readonly lang: string;
  readonly part: AgentTextPart;
  /** Names of example or fictional people (Alice, Bob, Sherlock Holmes): a finding on one is neither false nor due. */
  readonly examples: readonly GoldSpan[];
}

interface RawDoc {
  id: string;
  group: string;
  kind: AgentTextKind;
  lang: string;
  text: string;
}

interface Labels {
  /** Real people's names; every whole-word occurrence in any document is a PERSON span. */
  readonly names: readonly string[];
  /** Example and fictional people's names; their occurrences are left out of the scoring. */
  readonly examples: readonly string[];
}

/** Which part a group falls in: the first 32 bits of SHA-256(seed:group) against HELD_OUT_SHARE. */
export function partOf(group: string, seed: number): AgentTextPart {
  const h = createHash('sha256').update(`${seed}:${group}`).digest().readUInt32BE(0);
  return h / 2 ** 32 < HELD_OUT_SHARE ? 'heldout' : 'dev';
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * One pattern for all `names`: each name's words joined by any run of white space (man pages justify and wrap
 * lines), not inside a longer word on either side. Longer names first, so "Robert M. Love" wins over a prefix.
 */
export function namesPattern(names: readonly string[]): RegExp | null {
  if (names.length === 0) return null;
  const alternatives = [...names]
    .sort((a, b) => b.length - a.length)
    .map((n) => n.trim().split(/\s+/).map(escape).join('\\s+'));
  return new RegExp(`(?<![\\p{L}\\p{M}\\p{N}_])(?:${alternatives.join('|')})(?![\\p{L}\\p{M}\\p{N}_])`, 'gu');
}

/** The PERSON spans of `names` in `text`. */
export function labelNames(text: string, pattern: RegExp | null): GoldSpan[] {
  if (pattern === null) return [];
  const spans: GoldSpan[] = [];
  for (const m of text.matchAll(pattern)) spans.push({ type: 'PERSON', start: m.index, end: m.index + m[0].length });
  return spans;
}

/** Whether the bundle has been materialised in `dir` (it is not committed; CI machines have none). */
export function agentTextMaterialised(dir: string = AGENT_TEXT_DIR): boolean {
  return existsSync(join(dir, AGENT_TEXT_BUNDLE));
}

/** manifest.json: the sources, and per document [id, source index, bytes, SHA-256 of its text]. */
export interface AgentTextManifest {
  readonly sources: readonly { readonly licence: string }[];
  readonly documents: readonly (readonly [string, number, number, string])[];
}

/** Every way `docs` differ from what `manifest` pins: a document missing, extra, of other bytes, or of no licensed source. */
export function manifestMismatches(docs: readonly Pick<AgentTextDoc, 'id' | 'text'>[], manifest: AgentTextManifest): string[] {
  const byId = new Map(manifest.documents.map((d) => [d[0], d]));
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const d of docs) {
    seen.add(d.id);
    const entry = byId.get(d.id);
    if (entry === undefined) {
      problems.push(`${d.id}: not in the manifest`);
      continue;
    }
    const sum = createHash('sha256').update(d.text).digest('hex');
    if (sum !== entry[3] || Buffer.byteLength(d.text) !== entry[2]) problems.push(`${d.id}: SHA-256 ${sum}, the manifest says ${entry[3]}`);
    const licence = manifest.sources[entry[1]]?.licence;
    if (licence === undefined || licence === '') problems.push(`${d.id}: source ${entry[1]} has no licence`);
  }
  for (const id of byId.keys()) if (!seen.has(id)) problems.push(`${id}: in the manifest, not in the bundle`);
  return problems;
}

export function loadAgentTextSet(dir: string = AGENT_TEXT_DIR, seed: number = AGENT_TEXT_SEED): AgentTextDoc[] {
  const raw = gunzipSync(readFileSync(join(dir, AGENT_TEXT_BUNDLE))).toString('utf8');
  const labels = JSON.parse(readFileSync(join(dir, 'labels.json'), 'utf8')) as Labels;
  const pattern = namesPattern(labels.names);
  const examples = namesPattern(labels.examples);
  return raw
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const d = JSON.parse(line) as RawDoc;
      const spans = labelNames(d.text, pattern);
      // A real name wins over an example name inside it ("Bob Lee", the author, is not the example "Bob").
      const inNames = (x: GoldSpan): boolean => spans.some((s) => s.start < x.end && x.start < s.end);
      const exampleSpans = labelNames(d.text, examples).filter((x) => !inNames(x));
      return { id: d.id, group: d.group, kind: d.kind, lang: d.lang, text: d.text, part: partOf(d.group, seed), spans, examples: exampleSpans };
    });
}

/** The report's row for a document: man pages by language, everything else by kind. */
export function rowOf(doc: Pick<AgentTextDoc, 'kind' | 'lang'>): string {
  return doc.kind === 'man' ? `man ${doc.lang}` : doc.kind;
}
