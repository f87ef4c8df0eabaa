import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { AGENT_TEXT_DIR, AGENT_TEXT_SEED, labelNames, loadAgentTextSet, namesPattern, partOf } from './agent-text-set.js';
import type { AgentTextDoc } from './agent-text-set.js';

describe('agent-text set: split and labels', () => {
  let docs: AgentTextDoc[];
  before(() => {
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
    for (const kind of ['code', 'log', 'trace', 'diff', 'json', 'man']) {
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
    const manifest = JSON.parse(readFileSync(join(AGENT_TEXT_DIR, 'manifest.json'), 'utf8')) as {
      sources: { licence: string }[];
      documents: [string, number, number, string][];
    };
    const byId = new Map(manifest.documents.map((d) => [d[0], d]));
    expect(byId.size).to.equal(docs.length);
    for (const d of docs) {
      const entry = byId.get(d.id);
      expect(entry, d.id).to.not.equal(undefined);
      expect(createHash('sha256').update(d.text).digest('hex'), d.id).to.equal(entry?.[3]);
      expect(manifest.sources[entry?.[1] ?? -1]?.licence, d.id).to.be.a('string').and.not.equal('');
    }
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

  it('finds a name wrapped across lines, never inside a longer word, the longest name first', () => {
    const pattern = namesPattern(['Mario Blättermann', 'Bob', 'Robert M. Love', 'Robert M']);
    const text = 'von Mario\n       Blättermann <m@x>; Bobby and Bob; Robert M. Love wrote it';
    const found = labelNames(text, pattern).map((s) => text.slice(s.start, s.end));
    expect(found).to.deep.equal(['Mario\n       Blättermann', 'Bob', 'Robert M. Love']);
    expect(labelNames('no names', namesPattern([]))).to.deep.equal([]);
  });
});
