// Builds the software-text training source (README.md here): text from permissively licensed repositories at
// pinned commits, its real people's names labelled as PER, everything else O, written as io-tsv files.
//
//   node build.mjs extract --mirrors <dir>      texts into <work>/docs.jsonl (<dir>/<owner>+<repo>/repo: git dirs)
//   node build.mjs candidates                   strings to read by hand: author headers, the detector's findings
//   node build.mjs label                        labels.json applied: the .tsv files and files.json (for the manifest)
//
// The work directory is $SOFTWARE_TEXT_WORK (default /tmp/software-text). Deterministic: the same snapshots and
// labels give the same bytes. Never reads the agent-text set's repositories (test/fixtures/agent-text/manifest.json).
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '../../..');
const WORK = process.env.SOFTWARE_TEXT_WORK ?? '/tmp/software-text';
const PIECE = 24_000;

/** What is read: repository, commit, licence, and which texts (files, or the git log's last commits). */
export const SOURCES = [
  { repo: 'junegunn/fzf', commit: '956562da', licence: 'MIT', files: ['README.md', 'CHANGELOG.md', 'ADVANCED.md'], commits: 120_000 },
  { repo: 'psf/requests', commit: '1f6589ec', licence: 'Apache-2.0', files: ['HISTORY.md', 'docs/user/quickstart.rst', 'docs/user/advanced.rst', 'docs/community/faq.rst'], commits: 120_000 },
  ...Object.entries({ de: '2e664a02', pl: '29bb5738', es: 'e91a76a9', it: '8bd188a0', fr: 'd60169fc' }).map(([lang, commit]) => ({ repo: `reactjs/${lang}.react.dev`, commit, licence: 'CC-BY-4.0', docs: 'src/content', budget: 90_000, lang, commits: 0 })),
];

const sha = (s) => createHash('sha256').update(s).digest('hex');
const git = (dir, args) => execFileSync('git', ['--git-dir', dir, ...args], { maxBuffer: 1 << 28 }).toString('utf8');

function forbiddenRepos() {
  const m = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/agent-text/manifest.json'), 'utf8'));
  return new Set(m.sources.map((s) => s.repo).filter(Boolean));
}

/** Cuts a text at line ends into pieces of at most PIECE characters. */
function pieces(text) {
  const out = [];
  let cur = '';
  for (const line of text.split('\n')) {
    if (cur.length + line.length + 1 > PIECE && cur !== '') {
      out.push(cur);
      cur = '';
    }
    cur += `${line.slice(0, PIECE)}\n`;
  }
  if (cur.trim() !== '') out.push(cur);
  return out;
}

function extract(mirrors) {
  const forbidden = forbiddenRepos();
  const docs = [];
  const files = [];
  for (const src of SOURCES) {
    if (forbidden.has(src.repo)) throw new Error(`${src.repo} is an agent-text source`);
    const dir = join(mirrors, src.repo.replace('/', '+'), 'repo');
    const commit = git(dir, ['rev-parse', src.commit]).trim();
    const add = (path, kind, text, lang) => {
      files.push({ repo: src.repo, commit, path, kind, lang, licence: src.licence, sourceSha256: sha(text), bytes: Buffer.byteLength(text) });
      for (const [i, p] of pieces(text).entries()) docs.push({ id: `${src.repo}:${path}:${i}`, repo: src.repo, path, kind, lang, text: p });
    };
    for (const path of src.files ?? []) {
      const whole = git(dir, ['show', `${commit}:${path}`]);
      // A long list is cut at a line end: its first maxBytes are enough of its kind.
      add(path, 'doc', src.maxBytes === undefined ? whole : whole.slice(0, whole.lastIndexOf('\n', src.maxBytes) + 1), 'en');
    }
    if (src.docs !== undefined) {
      // Translated pages only (few English "the"), 8-40 KB, in the order of their path's hash, up to the budget.
      const listing = git(dir, ['ls-tree', '-r', '-l', commit, src.docs]).split('\n').filter((l) => l.endsWith('.md'));
      const paths = listing.map((l) => ({ size: Number(l.split(/\s+/)[3]), path: l.split('\t')[1] }))
        .filter((f) => f.size >= 8000 && f.size <= 40_000 && !/test/i.test(f.path))
        .sort((a, b) => (sha(a.path) < sha(b.path) ? -1 : 1));
      let used = 0;
      for (const f of paths) {
        if (used >= src.budget) break;
        const text = git(dir, ['show', `${commit}:${f.path}`]);
        const the = (text.match(/\bthe\b/g) ?? []).length;
        if ((the * 1000) / text.length > 1) continue;
        add(f.path, 'doc', text, src.lang);
        used += text.length;
      }
    }
    if (src.commits > 0) {
      // The last 400 commits before the pinned one that are no merges, in the order of their hash, each as
      // `git show --stat --patch` cut to one piece, until the budget.
      const hashes = git(dir, ['log', '--no-merges', '--format=%H', '-n', '400', commit]).split('\n').filter(Boolean).sort();
      let text = '';
      const picked = [];
      for (const h of hashes) {
        if (text.length >= src.commits) break;
        const shown = git(dir, ['show', '--stat', '--patch', h]);
        if (/\.(png|jpg|gif|svg|lock)\b/.test(shown.slice(0, 2000)) && shown.length > PIECE) continue;
        const cut = shown.length > PIECE ? shown.slice(0, shown.lastIndexOf('\n', PIECE) + 1) : shown;
        text += cut;
        picked.push(h);
      }
      add(`git show --stat --patch of ${picked.length} commits (commits.txt)`, 'diff', text, 'en');
      writeFileSync(join(WORK, `${src.repo.replace('/', '+')}.commits.txt`), `${picked.join('\n')}\n`);
    }
  }
  writeFileSync(join(WORK, 'docs.jsonl'), docs.map((d) => JSON.stringify(d)).join('\n') + '\n');
  writeFileSync(join(WORK, 'origins.json'), JSON.stringify(files, null, 1));
  console.log(`${docs.length} pieces, ${files.length} files, ${docs.reduce((n, d) => n + d.text.length, 0)} characters`);
}

const readDocs = () => readFileSync(join(WORK, 'docs.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));

async function candidates() {
  const { detect, loadNameModel, useNameModel } = await import('@gateway/privacy');
  const { GIVEN_NAME_SET, SURNAME_SET } = await import('@gateway/privacy/internals');
  useNameModel(loadNameModel());
  const seen = new Map();
  const note = (s, ctx, why) => {
    const e = seen.get(s) ?? { n: 0, ctx, why };
    e.n += 1;
    seen.set(s, e);
  };
  for (const d of readDocs()) {
    // Name before an e-mail address (author headers, trailers, copyright lines).
    for (const m of d.text.matchAll(/([\p{Lu}][\p{L}'.-]+(?:[ \t]+[\p{L}'.-]+){0,3})[ \t]+<[^>\s]+@[^>\s]+>/gu)) note(m[1], d.text.slice(Math.max(0, m.index - 40), m.index + 80), 'email');
    // Capitalised words after a known given name, or before a known surname (names the model may miss).
    for (const m of d.text.matchAll(/\b(\p{Lu}[\p{Ll}'-]+)[ \t]+(\p{Lu}[\p{L}'-]+)\b/gu)) {
      if (GIVEN_NAME_SET.has(m[1]) || SURNAME_SET.has(m[2])) note(m[0], d.text.slice(Math.max(0, m.index - 40), m.index + 60), 'lists');
    }
    for (const f of detect(d.text)) if (f.type === 'PERSON') note(d.text.slice(f.start, f.end), d.text.slice(Math.max(0, f.start - 50), f.end + 50), 'detect');
  }
  const rows = [...seen].sort((a, b) => b[1].n - a[1].n || (a[0] < b[0] ? -1 : 1));
  for (const [s, e] of rows) console.log(`${e.n}\t${e.why}\t${s}\t${e.ctx.replace(/\s+/g, ' ')}`);
}

async function label() {
  const { tokeniseForNames } = await import('@gateway/privacy/internals');
  const labels = JSON.parse(readFileSync(join(HERE, 'labels.json'), 'utf8'));
  const names = labels.names.map((n) => n.split(/\s+/));
  const origins = JSON.parse(readFileSync(join(WORK, 'origins.json'), 'utf8'));
  const byFile = new Map();
  for (const d of readDocs()) {
    const key = `${d.repo}\t${d.path}`;
    const t = tokeniseForNames(d.text);
    const words = t.starts.map((s, i) => d.text.slice(s, t.ends[i]));
    const tags = new Array(words.length).fill('O');
    for (const name of names) {
      for (let i = 0; i + name.length <= words.length; i++) {
        if (name.every((w, k) => words[i + k] === w)) for (let k = 0; k < name.length; k++) tags[i + k] = 'PER';
      }
    }
    let out = byFile.get(key) ?? '';
    let sentence = [];
    const flush = () => {
      // Sentences with a capital letter only: the tagger reads no word far from one.
      if (sentence.some(([w]) => /\p{Lu}/u.test(w))) out += `${sentence.map(([w, tg]) => `${w}\t${tg}`).join('\n')}\n\n`;
      sentence = [];
    };
    for (let i = 0; i < words.length; i++) {
      if (t.sentenceStart[i] === 1) flush();
      sentence.push([words[i], tags[i]]);
    }
    flush();
    byFile.set(key, out);
  }
  const dir = HERE;
  const entries = [];
  for (const o of origins) {
    const text = byFile.get(`${o.repo}\t${o.path}`) ?? '';
    const name = o.kind === 'diff' ? 'commits' : o.path.replace(/^src\/content\//, '').replace(/\//g, '_').replace(/\.(md|rst)$/, '');
    const local = `software-text/${o.repo.replace('/', '+')}/${name}.tsv`;
    mkdirSync(join(dir, dirname(local.slice('software-text/'.length))), { recursive: true });
    writeFileSync(join(dir, local.slice('software-text/'.length)), text);
    entries.push({ local, repository: `github.com/${o.repo}`, path: o.path, commit: o.commit, role: 'train', language: o.lang, sha256: sha(text), sourceSha256: o.sourceSha256 });
  }
  writeFileSync(join(WORK, 'files.json'), JSON.stringify(entries, null, 1));
  console.log(`${entries.length} files, ${labels.names.length} names`);
}

mkdirSync(WORK, { recursive: true });
const [cmd, flag, value] = process.argv.slice(2);
if (cmd === 'extract' && flag === '--mirrors') extract(value);
else if (cmd === 'candidates') await candidates();
else if (cmd === 'label') await label();
else console.error('usage: node build.mjs extract --mirrors <dir> | candidates | label');
