import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import {
  AGENT_TEXT_BUNDLE,
  AGENT_TEXT_DIR,
  AGENT_TEXT_SEED,
  agentTextMaterialised,
  labelNames,
  loadAgentTextSet,
  manifestMismatches,
  namesPattern,
  partOf,
} from './agent-text-set.js';
import type { AgentTextDoc, AgentTextManifest } from './agent-text-set.js';

const KINDS = ['code', 'log', 'trace', 'diff', 'json', 'man'] as const;
const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');

// A bundle written here, in the materialised bundle's format, for the split and label logic: 240 groups of one to
// three chunks over the six kinds, invented text, with names wrapped across lines, inside longer words and inside
// an example name. The real bundle is not committed (CI has none); its own checks follow, where it is materialised.
interface RawDoc {
  id: string;
  group: string;
  kind: (typeof KINDS)[number];
  lang: string;
  text: string;
}
function inventedBundle(): { raw: RawDoc[]; labels: { names: string[]; examples: string[] } } {
  const raw: RawDoc[] = [];
  for (let g = 0; g < 240; g++) {
    const kind = KINDS[g % KINDS.length] as (typeof KINDS)[number];
    const group = `invented/${kind}:file-${g}`;
    for (let c = 0; c <= g % 3; c++) {
      const text =
        g % 4 === 0
          ? `chunk ${c} of ${group}\nCopyright 2020 Ada\n    Quist <a@example.org>; thanks to Bob and to Bob Lee; not XAda Quist nor Ada Quistz\n`
          : `chunk ${c} of ${group}: nothing named here, only Bobby and Ada-less words\n`;
      raw.push({ id: `${group}#${c}`, group, kind, lang: kind === 'man' ? 'de' : 'x', text });
    }
  }
  return { raw, labels: { names: ['Ada Quist', 'Bob Lee'], examples: ['Bob'] } };
}

describe('agent-text set: split and labels, on a bundle written by the test', () => {
  let dir: string;
  let raw: RawDoc[];
  let docs: AgentTextDoc[];
  let manifest: AgentTextManifest;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'gw-agent-text-'));
    const bundle = inventedBundle();
    raw = bundle.raw;
    writeFileSync(join(dir, AGENT_TEXT_BUNDLE), gzipSync(raw.map((d) => JSON.stringify(d)).join('\n') + '\n'));
    writeFileSync(join(dir, 'labels.json'), JSON.stringify(bundle.labels));
    manifest = { sources: [{ licence: 'LicenseRef-invented' }], documents: raw.map((d) => [d.id, 0, Buffer.byteLength(d.text), sha256(d.text)] as const) };
    docs = loadAgentTextSet(dir);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('is materialised where written, and not in an empty directory', () => {
    expect(agentTextMaterialised(dir)).to.equal(true);
    const empty = mkdtempSync(join(tmpdir(), 'gw-agent-text-empty-'));
    try {
      expect(agentTextMaterialised(empty)).to.equal(false);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('loads every document in order, the same documents, parts and spans every time', () => {
    expect(docs.map((d) => d.id)).to.deep.equal(raw.map((d) => d.id));
    expect(docs.map((d) => d.text)).to.deep.equal(raw.map((d) => d.text));
    const again = loadAgentTextSet(dir);
    expect(again.map((d) => [d.id, d.part, d.spans, d.examples])).to.deep.equal(docs.map((d) => [d.id, d.part, d.spans, d.examples]));
  });

  it('puts every group in one part only, both parts holding groups of every kind', () => {
    const partsOfGroup = new Map<string, Set<string>>();
    for (const d of docs) partsOfGroup.set(d.group, (partsOfGroup.get(d.group) ?? new Set()).add(d.part));
    expect(partsOfGroup.size).to.equal(240);
    for (const [group, parts] of partsOfGroup) expect(parts.size, group).to.equal(1);
    for (const d of docs) expect(d.part, d.id).to.equal(partOf(d.group, AGENT_TEXT_SEED));
    const held = [...partsOfGroup.values()].filter((p) => p.has('heldout')).length;
    expect(held / partsOfGroup.size).to.be.within(0.4, 0.6);
    for (const kind of KINDS) {
      expect(docs.some((d) => d.kind === kind && d.part === 'dev'), `${kind} dev`).to.equal(true);
      expect(docs.some((d) => d.kind === kind && d.part === 'heldout'), `${kind} held out`).to.equal(true);
    }
  });

  it('splits by the seed: another seed moves groups between the parts', () => {
    const other = loadAgentTextSet(dir, AGENT_TEXT_SEED + 1);
    const groups = [...new Set(docs.map((d) => d.group))];
    const moved = groups.filter((g) => docs.find((d) => d.group === g)?.part !== other.find((d) => d.group === g)?.part).length;
    expect(moved / groups.length).to.be.within(0.3, 0.7);
  });

  it('labels the listed names, wrapped across lines too, never inside a longer word, an example name inside one left out', () => {
    const named = docs.filter((d) => d.text.includes('Copyright'));
    expect(named.length).to.be.greaterThan(50);
    for (const d of named) {
      expect(d.spans.map((s) => d.text.slice(s.start, s.end)), d.id).to.deep.equal(['Ada\n    Quist', 'Bob Lee']);
      // "Bob" alone is an example; the "Bob" of "Bob Lee" is the real name's, not an example.
      expect(d.examples.map((s) => d.text.slice(s.start, s.end)), d.id).to.deep.equal(['Bob']);
      expect(d.spans.every((s) => s.type === 'PERSON')).to.equal(true);
    }
    for (const d of docs.filter((x) => !x.text.includes('Copyright'))) expect([d.spans, d.examples], d.id).to.deep.equal([[], []]);
  });

  it('matches the manifest it was pinned by, and names each document that differs from it', () => {
    expect(manifestMismatches(docs, manifest)).to.deep.equal([]);
    const changed = docs.map((d, i) => (i === 5 ? { ...d, text: `${d.text} ` } : d));
    const problems = manifestMismatches(changed.slice(1), manifest);
    expect(problems).to.have.length(2);
    expect(problems[0]).to.match(new RegExp(`^${docs[5]?.id.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: SHA-256 [0-9a-f]{64}, the manifest says ${sha256(docs[5]?.text ?? '')}$`));
    expect(problems[1]).to.equal(`${docs[0]?.id}: in the manifest, not in the bundle`);
    const unlicensed = { ...manifest, sources: [{ licence: '' }] };
    expect(manifestMismatches(docs.slice(0, 1), { ...unlicensed, documents: unlicensed.documents.slice(0, 1) })).to.deep.equal([`${docs[0]?.id}: source 0 has no licence`]);
  });

  it('finds a name wrapped across lines, never inside a longer word, the longest name first', () => {
    const pattern = namesPattern(['Mario Blättermann', 'Bob', 'Robert M. Love', 'Robert M']);
    const text = 'von Mario\n       Blättermann <m@x>; Bobby and Bob; Robert M. Love wrote it';
    const found = labelNames(text, pattern).map((s) => text.slice(s.start, s.end));
    expect(found).to.deep.equal(['Mario\n       Blättermann', 'Bob', 'Robert M. Love']);
    expect(labelNames('no names', namesPattern([]))).to.deep.equal([]);
  });
});

// The real set: the bundle is materialised locally (npm run corpora:agent-text; test/fixtures/agent-text/README.md),
// never committed, so these run only where it has been materialised; the labels and the manifest are committed.
describe('agent-text set: the materialised bundle (real data: runs where test/fixtures/agent-text/agent-text.jsonl.gz is materialised)', () => {
  let docs: AgentTextDoc[];
  before(function () {
    if (!agentTextMaterialised()) this.skip();
    docs = loadAgentTextSet();
  });

  it('loads the same documents, parts and spans every time', () => {
    const again = loadAgentTextSet();
    expect(again.map((d) => [d.id, d.part, d.spans.length, d.examples.length])).to.deep.equal(docs.map((d) => [d.id, d.part, d.spans.length, d.examples.length]));
    expect(again.flatMap((d) => d.spans)).to.deep.equal(docs.flatMap((d) => d.spans));
  });

  it('puts every group in one part only, and each part gets a fair share of the bytes', () => {
    const partsOfGroup = new Map<string, Set<string>>();
    for (const d of docs) partsOfGroup.set(d.group, (partsOfGroup.get(d.group) ?? new Set()).add(d.part));
    for (const [group, parts] of partsOfGroup) expect(parts.size, group).to.equal(1);
    const ids = new Set(docs.map((d) => d.id));
    expect(ids.size).to.equal(docs.length);
    const bytes = (part: string): number => docs.filter((d) => d.part === part).reduce((n, d) => n + Buffer.byteLength(d.text), 0);
    const total = bytes('dev') + bytes('heldout');
    expect(total).to.be.greaterThan(5 * 1024 * 1024);
    expect(bytes('heldout') / total).to.be.within(0.4, 0.6);
    // Every kind is in both parts, so each table row has dev figures to tune on and held-out figures to report.
    for (const kind of KINDS) {
      expect(docs.some((d) => d.kind === kind && d.part === 'dev'), `${kind} dev`).to.equal(true);
      expect(docs.some((d) => d.kind === kind && d.part === 'heldout'), `${kind} held out`).to.equal(true);
    }
  });

  it('splits by the seed: another seed moves groups between the parts', () => {
    const groups = [...new Set(docs.map((d) => d.group))];
    const moved = groups.filter((g) => partOf(g, AGENT_TEXT_SEED) !== partOf(g, AGENT_TEXT_SEED + 1)).length;
    expect(moved / groups.length).to.be.within(0.3, 0.7);
  });

  it('matches the manifest: each document text has the SHA-256 recorded there, and every source a licence', () => {
    const manifest = JSON.parse(readFileSync(join(AGENT_TEXT_DIR, 'manifest.json'), 'utf8')) as AgentTextManifest;
    expect(manifest.documents.length).to.equal(docs.length);
    expect(manifestMismatches(docs, manifest)).to.deep.equal([]);
  });

  it('labels every listed name somewhere, and real names in both parts', () => {
    const labels = JSON.parse(readFileSync(join(AGENT_TEXT_DIR, 'labels.json'), 'utf8')) as { names: string[] };
    const labelled = new Set(docs.flatMap((d) => d.spans.map((s) => d.text.slice(s.start, s.end).replace(/\s+/g, ' '))));
    const unused = labels.names.filter((n) => !labelled.has(n.replace(/\s+/g, ' ')));
    expect(unused).to.deep.equal([]);
    expect(docs.filter((d) => d.part === 'dev').flatMap((d) => d.spans).length).to.be.greaterThan(300);
    expect(docs.filter((d) => d.part === 'heldout').flatMap((d) => d.spans).length).to.be.greaterThan(300);
    for (const d of docs) for (const s of d.spans) expect(d.examples.some((x) => x.start < s.end && s.start < x.end), d.id).to.equal(false);
  });
});
