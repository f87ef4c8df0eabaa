import { readFileSync } from 'node:fs';
import { detect } from '@gateway/privacy';
import { locateCorpusFiles, type CorpusSource } from './manifest.js';
import { parseCorpus, type LabelledSentence } from './read-corpus.js';
import { addScore, emptyScore, namesAfterTitles, type NameScore, sentenceText, type Span, tagSpans } from './score-names.js';

/** One article of a corpus that keeps article breaks (CoNLL-2003's -DOCSTART- lines): its sentences in order. */
export type CorpusDocument = readonly LabelledSentence[];

const DOCSTART_RE = /^[^\n]*-DOCSTART-[^\n]*$/m;

/** The articles of a corpus file that marks them; none when it does not. */
export function readDocuments(source: CorpusSource, raw: string): CorpusDocument[] {
  if (!DOCSTART_RE.test(raw)) return [];
  return raw
    .split(new RegExp(DOCSTART_RE.source, 'gm'))
    .map((part) => parseCorpus(source, part))
    .filter((doc) => doc.length > 0);
}

/** The dev files' articles of every source whose dev files mark them, by language. */
export function devDocuments(sources: readonly CorpusSource[], dirs: readonly string[]): Map<string, CorpusDocument[]> {
  const out = new Map<string, CorpusDocument[]>();
  for (const source of sources) {
    const dev = source.files.filter((f) => f.role === 'dev');
    if (dev.length === 0) continue;
    const files = locateCorpusFiles([{ ...source, files: dev }], dirs);
    for (const file of dev) {
      const docs = readDocuments(source, readFileSync(files.get(file) as string, 'utf8'));
      if (docs.length > 0) out.set(file.language, [...(out.get(file.language) ?? []), ...docs]);
    }
  }
  return out;
}

/**
 * PERSON through the whole detector, article by article: the article's sentences one per line, as one text (how
 * a prompt carries a document), or each sentence alone (how the real-text report reads them).
 */
export function scoreDocuments(docs: readonly CorpusDocument[], whole: boolean): NameScore {
  const score = emptyScore();
  for (const doc of docs) {
    const gold: Span[] = [];
    const placeOrg: Span[] = [];
    const found: Span[] = [];
    let offset = 0;
    const lines: string[] = [];
    for (const s of doc) {
      const { text, chars } = sentenceText(s.words);
      const shift = (x: Span): Span => ({ start: x.start + offset, end: x.end + offset });
      gold.push(...chars(namesAfterTitles(s.words, tagSpans(s.tags, 0))).map(shift));
      placeOrg.push(...chars([...tagSpans(s.tags, 1), ...tagSpans(s.tags, 2)]).map(shift));
      if (!whole) found.push(...detect(text).filter((f) => f.type === 'PERSON').map(shift));
      lines.push(text);
      offset += text.length + 1;
    }
    if (whole) found.push(...detect(lines.join('\n')).filter((f) => f.type === 'PERSON'));
    addScore(score, gold, placeOrg, found);
  }
  return score;
}
