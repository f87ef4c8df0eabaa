import { expect } from 'chai';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { REPO_ROOT } from './harness/gateway.js';

// The image's runtime stage, checked without a container engine: deploy/prune-build.sh runs on a copy of the built
// tree (as the build stage runs it after `npm prune`), the runtime stage's COPY --from=build lines assemble the image's
// /app from it, and that tree is inspected and started. Where an engine answers and already holds the base image,
// the image itself is built and inspected too.

const DOCKERFILE = readFileSync(join(REPO_ROOT, 'deploy/Dockerfile'), 'utf8');
const WORKSPACES = ['shared', 'policy', 'privacy', 'proxy'] as const;

interface Stage { from: string; lines: string[] }
/** The Dockerfile's stages: instructions with continuation lines joined, comments dropped. */
function stages(text: string): Stage[] {
  const instructions = text.replace(/\\\n/g, ' ').split('\n').filter((l) => l.trim() !== '' && !l.trimStart().startsWith('#'));
  const out: Stage[] = [];
  for (const line of instructions) {
    if (/^FROM\s/i.test(line)) out.push({ from: line.split(/\s+/)[1]!, lines: [] });
    else out.at(-1)?.lines.push(line.trim());
  }
  return out;
}
const [buildStage, runtime] = stages(DOCKERFILE) as [Stage, Stage];
/** Runtime COPY --from=build: source under the build stage's /app, destination under the runtime's /app. */
const runtimeCopies = runtime.lines.filter((l) => /^COPY\s+--from=build\s/i.test(l)).map((l) => {
  const [src, dst] = l.split(/\s+/).slice(2) as [string, string];
  expect(src.startsWith('/app/'), src).to.equal(true);
  return { src: src.slice('/app/'.length), dst: dst === './' ? '' : dst.replace(/\/$/, '') };
});

function walk(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

/** Runs node; resolves with how it ended (the entry points are run side by side). */
function node(args: string[], cwd: string, env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, { cwd, env: { PATH: process.env['PATH'] ?? '', ...env }, timeout: 30_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => { stdout += d; });
    child.stderr.setEncoding('utf8').on('data', (d: string) => { stderr += d; });
    child.on('error', fail);
    child.on('close', (status) => done({ status, stdout, stderr }));
  });
}

/** The top-level packages the workspaces (and the copied better-sqlite3) need; each links to the installed one. */
function productionLinks(): string[] {
  const names = new Set<string>();
  for (const w of WORKSPACES) {
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, w, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    for (const d of Object.keys(pkg.dependencies ?? {})) if (!d.startsWith('@gateway/')) names.add(d);
  }
  const sqlite = JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules/better-sqlite3/package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  for (const d of Object.keys(sqlite.dependencies ?? {})) names.add(d);
  names.delete('better-sqlite3');
  return [...names];
}

describe('container image: numeric user, only the runtime inside, no registry frontend', function () {
  this.timeout(60_000);
  let build: string;
  let app: string;

  before(function () {
    const root = mkdtempSync(join(tmpdir(), 'gw-image-'));
    build = join(root, 'build');
    app = join(root, 'app');
    // The build stage after `tsc -b` and `npm prune --omit=dev`: what the checkout built, production packages only.
    for (const f of ['package.json', 'proto', 'deploy/prune-build.sh']) cpSync(join(REPO_ROOT, f), join(build, f), { recursive: true });
    for (const w of WORKSPACES) {
      for (const f of ['package.json', 'dist']) cpSync(join(REPO_ROOT, w, f), join(build, w, f), { recursive: true });
    }
    for (const f of ['policy/bin', 'policy/catalogue', 'proxy/models']) cpSync(join(REPO_ROOT, f), join(build, f), { recursive: true });
    const modules = join(build, 'node_modules');
    mkdirSync(join(modules, '@gateway'), { recursive: true });
    for (const name of productionLinks()) {
      mkdirSync(dirname(join(modules, name)), { recursive: true });
      symlinkSync(join(REPO_ROOT, 'node_modules', name), join(modules, name));
    }
    cpSync(join(REPO_ROOT, 'node_modules/better-sqlite3'), join(modules, 'better-sqlite3'), { recursive: true });
    for (const link of readdirSync(join(REPO_ROOT, 'node_modules/@gateway'))) {
      symlinkSync(readlinkSync(join(REPO_ROOT, 'node_modules/@gateway', link)), join(modules, '@gateway', link));
    }
    const prune = spawnSync('sh', ['deploy/prune-build.sh'], { cwd: build, encoding: 'utf8' });
    expect(prune.status, prune.stderr).to.equal(0);
    // The runtime stage: its COPY --from=build lines, in order.
    for (const { src, dst } of runtimeCopies) {
      cpSync(join(build, src), join(app, dst, lstatSync(join(build, src)).isDirectory() ? '' : src.split('/').at(-1)!), { recursive: true, verbatimSymlinks: true });
    }
  });
  after(function () {
    if (build !== undefined) rmSync(dirname(build), { recursive: true, force: true });
  });

  it('pulls no frontend image and runs as a numeric non-root user, with /data its own', function () {
    expect(DOCKERFILE).to.not.match(/^#\s*syntax\s*=/im);
    expect(stages(DOCKERFILE)).to.have.length(2);
    // The build stage prunes after `npm prune`, with the script the static checks below run.
    expect(buildStage.lines).to.include('COPY deploy/prune-build.sh deploy/');
    expect(buildStage.lines.find((l) => l.startsWith('RUN ') && l.includes('sh deploy/prune-build.sh'))).to.match(/npm prune --omit=dev .*&& sh deploy\/prune-build\.sh$/);
    const users = runtime.lines.filter((l) => /^USER\s/i.test(l));
    expect(users).to.deep.equal(['USER 1000:1000']);
    expect(runtime.lines).to.include('RUN mkdir -p /data && chown 1000:1000 /data');
    // HEALTHCHECK is left out on purpose; the reason is written beside where it would be.
    expect(DOCKERFILE).to.match(/^# No HEALTHCHECK: /m);
  });

  it('the runtime stage carries no compiled tests, build info, declarations or native-module sources', function () {
    expect(runtimeCopies.map((c) => c.src)).to.include.members(WORKSPACES.map((w) => `${w}/dist/src`));
    const files = walk(app).map((f) => relative(app, f));
    expect(files.filter((f) => f.includes('/dist/src/')).length).to.be.greaterThan(100);
    expect(files.filter((f) => /\/dist\/test\/|\.tsbuildinfo$|\.d\.ts(\.map)?$/.test(f))).to.deep.equal([]);
    // better-sqlite3: its JavaScript and the one addon, none of the SQLite/C++ sources or the compile tree.
    const sqlite = files.filter((f) => f.startsWith('node_modules/better-sqlite3/')).map((f) => f.slice('node_modules/better-sqlite3/'.length));
    expect(sqlite.filter((f) => !f.startsWith('lib/') && !['package.json', 'LICENSE', 'README.md'].includes(f))).to.deep.equal(['build/Release/better_sqlite3.node']);
    // Workspace links point at workspaces the image holds.
    for (const link of readdirSync(join(app, 'node_modules/@gateway'))) {
      expect(existsSync(join(app, 'node_modules/@gateway', link)), `@gateway/${link}`).to.equal(true);
    }
  });

  it('every relative import of the runtime code resolves inside the image, and none reaches test support', function () {
    const missing: string[] = [];
    for (const file of walk(app).filter((f) => f.endsWith('.js') && !relative(app, f).startsWith('node_modules'))) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g)) {
        const spec = m[1]!;
        expect(spec, relative(app, file)).to.not.match(/test-support|\/test\//);
        if (spec.startsWith('.') && !existsSync(resolve(dirname(file), spec))) missing.push(`${relative(app, file)}: ${spec}`);
      }
    }
    expect(missing).to.deep.equal([]);
  });

  it('both entry points load their whole module graph from the image tree, and better-sqlite3 runs from the addon alone', async function () {
    // ESM links every static import before any code runs: exit 2 with the config message means all of them resolved.
    const [proxy, policy, sqlite] = await Promise.all([
      node(['proxy/dist/src/main.js'], app, { PORT: 'not-a-port' }),
      node(['policy/dist/src/main.js'], app, { METRICS_PORT: 'not-a-port' }),
      node(['--input-type=module', '-e', "import Database from 'better-sqlite3'; process.stdout.write(String(new Database(':memory:').prepare('select 6 * 7 as n').get().n));"], join(app, 'policy'), {}),
    ]);
    for (const [entry, run] of [['proxy', proxy], ['policy', policy]] as const) {
      expect(run.stderr, entry).to.not.match(/ERR_MODULE_NOT_FOUND|Cannot find/);
      expect(run.stderr, entry).to.match(/PORT/);
      expect(run.status, `${entry}: ${run.stderr}`).to.equal(2);
    }
    expect(sqlite.stderr).to.equal('');
    expect(sqlite.stdout).to.equal('42');
  });

  // The image itself, where an engine answers and holds the base image already: a test pulls nothing.
  const answers = (e: string, args: string[]) => spawnSync(e, args, { stdio: 'ignore', timeout: 30_000 }).status === 0;
  const engine = ['podman', 'docker'].find((e) => answers(e, ['image', 'inspect', runtime.from]) && answers(e, ['run', '--rm', '--network', 'none', runtime.from, 'true']));
  if (engine !== undefined) {
    it(`${engine} builds the image; it runs as 1000:1000 and holds only the runtime`, function () {
      this.timeout(900_000);
      const tag = `model-gateway:image-test-${process.pid}`;
      const built = spawnSync(engine, ['build', '--pull=never', '-f', 'deploy/Dockerfile', '-t', tag, '.'], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 840_000 });
      expect(built.status, built.stderr.slice(-2000)).to.equal(0);
      try {
        const user = spawnSync(engine, ['image', 'inspect', '--format', '{{.Config.User}}', tag], { encoding: 'utf8' });
        expect(user.stdout.trim()).to.equal('1000:1000');
        const run = (...args: string[]) => spawnSync(engine, ['run', '--rm', '--network', 'none', '--read-only', tag, ...args], { encoding: 'utf8', timeout: 60_000 });
        expect(run('-e', 'process.stdout.write(`${process.getuid()}:${process.getgid()}`)').stdout).to.equal('1000:1000');
        const leftovers = run('-e', `const { readdirSync } = require('node:fs');
          const hits = readdirSync('/app', { recursive: true }).filter((f) => /\\/dist\\/test\\/|\\.tsbuildinfo$|\\/dist\\/src\\/.*\\.d\\.ts$|better-sqlite3\\/(deps|src)\\/|^node_modules\\/@types\\//.test(f));
          process.stdout.write(JSON.stringify(hits));`);
        expect(leftovers.stdout, leftovers.stderr).to.equal('[]');
        expect(run('-e', "const D = require('better-sqlite3'); process.stdout.write(String(new D(':memory:').prepare('select 6 * 7 as n').get().n))").stdout).to.equal('42');
        const proxy = spawnSync(engine, ['run', '--rm', '--network', 'none', '--read-only', '-e', 'PORT=not-a-port', tag], { encoding: 'utf8', timeout: 60_000 });
        expect(proxy.status, proxy.stderr).to.equal(2);
      } finally {
        spawnSync(engine, ['rmi', '-f', tag], { stdio: 'ignore' });
      }
    });
  }
});
