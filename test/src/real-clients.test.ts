import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMessagesFake, type MessagesFake } from './fakes/index.js';
import { REPO_ROOT, TestGateway, createKey, type CreatedKey } from './harness/gateway.js';

// Current clients send what older gateways refuse: a `system` role inside `messages`, fields such as
// `thinking: {type: "adaptive"}`, `context_management` and `output_config`, ~80–115 KB of system prompt and
// tools, all on `?beta=true`. The fixture is one such request, captured from the Claude Code CLI.
interface Fixture {
  anthropic_beta: string;
  body: Record<string, unknown> & { messages: Array<{ role: string; content: unknown }> };
}
const fixture = (): Fixture => JSON.parse(readFileSync(join(REPO_ROOT, 'test/fixtures/claude-code-request.json'), 'utf8')) as Fixture;

const CLI = createRequire(import.meta.url).resolve('@anthropic-ai/claude-code/cli-wrapper.cjs');

// PII the CLI carries in two places: the prompt (a user message) and a custom agent's description, which
// the CLI sends in its mid-conversation `system`-role message.
const AGENT_EMAIL = 'jane.doe@example.co.uk';
const AGENT_PHONE = '+44 20 7946 0958';
const PROMPT_EMAIL = 'sam.patel@example.com';

interface CliResult {
  type: string;
  subtype: string;
  is_error: boolean;
  result: string;
}

/** Runs `claude -p PROMPT --output-format json` against the gateway, with its own HOME and telemetry off. */
function runClaude(baseURL: string, apiKey: string, prompt: string): Promise<CliResult> {
  const home = mkdtempSync(join(tmpdir(), 'gw-claude-'));
  mkdirSync(join(home, '.claude', 'agents'), { recursive: true });
  writeFileSync(
    join(home, '.claude', 'agents', 'escalation.md'),
    `---\nname: escalation\ndescription: Escalates billing disputes to ${AGENT_EMAIL} or ${AGENT_PHONE}\n---\nYou escalate billing disputes.\n`,
  );
  const env = {
    PATH: process.env['PATH'] ?? '',
    HOME: home,
    ANTHROPIC_BASE_URL: baseURL,
    ANTHROPIC_API_KEY: apiKey,
    ANTHROPIC_MODEL: 'alpha-sonnet-4-6',
    ANTHROPIC_SMALL_FAST_MODEL: 'alpha-sonnet-4-6',
    DISABLE_TELEMETRY: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
  };
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, [CLI, '-p', prompt, '--output-format', 'json'], { env, cwd: home, timeout: 90_000 }, (err, stdout, stderr) => {
      rmSync(home, { recursive: true, force: true });
      if (err !== null) return reject(new Error(`claude failed: ${err.message}\nstdout: ${stdout}\nstderr: ${stderr}`));
      try {
        resolve(JSON.parse(stdout) as CliResult);
      } catch {
        reject(new Error(`claude printed no JSON result:\n${stdout}\n${stderr}`));
      }
    });
    child.stdin?.end();
  });
}

async function fetchJson(url: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers; text: string }> {
  const res = await fetch(url, init);
  return { status: res.status, headers: res.headers, text: await res.text() };
}

describe('real clients: the Claude Code CLI and requests the gateway does not fully understand', function () {
  this.timeout(120_000);
  let gw: TestGateway;
  let fake: MessagesFake;
  const keys: Record<string, CreatedKey> = {};

  before(async function () {
    fake = await startMessagesFake({ apiKey: 'up' });
    gw = await new TestGateway({ env: { UPSTREAM_URL: `${fake.url}/{region}/v1`, UPSTREAM_API_KEY: 'up' } }).start();
    const first = await createKey(gw, { privacy: 'off' });
    keys['test'] = first;
    for (const mode of ['off', 'flag', 'redact', 'tokenise']) {
      keys[`live-${mode}`] = await createKey(gw, { account: first.account_id, privacy: mode, env: 'live' });
    }
  });
  after(async () => {
    await gw?.stop();
    await fake?.close();
  });
  beforeEach(() => fake.reset());

  /** The one /v1/messages request the upstream saw (the CLI sends one per -p turn here). */
  const upstreamMessage = () => {
    const posts = fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/v1/messages'));
    expect(posts, 'requests that reached the upstream').to.have.length(1);
    return posts[0]!;
  };

  it('answers GET / and HEAD / with 200 and a small JSON body, no key needed; other methods are 405', async function () {
    const get = await fetchJson(gw.url('/'));
    expect(get.status).to.equal(200);
    expect(get.headers.get('content-type')).to.match(/^application\/json/);
    expect(JSON.parse(get.text)).to.deep.equal({ service: 'model-gateway', api: '/v1', status: 'ok' });
    expect(get.headers.get('request-id')).to.match(/^req_/);
    const head = await fetchJson(gw.url('/'), { method: 'HEAD' });
    expect(head.status).to.equal(200);
    expect(head.text).to.equal('');
    const post = await fetchJson(gw.url('/'), { method: 'POST', body: '{}' });
    expect(post.status).to.equal(405);
    expect(JSON.parse(post.text).error.type).to.equal('invalid_request_error');
  });

  it('test key: the stub answers a request with a system role, unknown fields and unknown block types', async function () {
    const body = {
      model: 'alpha-sonnet-4-6',
      max_tokens: 64,
      thinking: { type: 'adaptive' },
      output_config: { effort: 'high' },
      future_field: { anything: [1, 2, 3] },
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'first' }, { type: 'hologram', frames: 3 }] },
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'say hello' }] },
      ],
    };
    const r = await fetchJson(gw.url('/v1/messages?beta=true'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': keys['test']!.key, 'anthropic-beta': 'mid-conversation-system-2026-04-07' },
      body: JSON.stringify(body),
    });
    expect(r.status, r.text).to.equal(200);
    const msg = JSON.parse(r.text) as { type: string; content: Array<{ text: string }>; usage: { input_tokens: number; output_tokens: number } };
    expect(msg.type).to.equal('message');
    expect(msg.content[0]?.text).to.equal('This is a test response from alpha-sonnet-4-6. You said: say hello');
    expect(msg.usage.input_tokens).to.be.greaterThan(0);
    expect(msg.usage.output_tokens).to.equal(msg.content[0]!.text.split(' ').length);
  });

  it('live key: forwards a captured Claude Code request unchanged but for the model, betas included', async function () {
    const { body, anthropic_beta } = fixture();
    expect(body.messages.map((m) => m.role)).to.include('system');
    const r = await fetchJson(gw.url('/v1/messages?beta=true'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': keys['live-off']!.key, 'anthropic-version': '2023-06-01', 'anthropic-beta': anthropic_beta },
      body: JSON.stringify(body),
    });
    expect(r.status, r.text.slice(0, 500)).to.equal(200);
    expect(r.headers.get('content-type')).to.match(/^text\/event-stream/);
    expect(r.text).to.contain('event: message_stop');
    const seen = upstreamMessage();
    expect(seen.headers['anthropic-beta']).to.equal(anthropic_beta);
    expect(seen.json).to.deep.equal({ ...body, model: r.headers.get('x-gateway-model') });
  });

  it('the CLI works with a test key', async function () {
    const out = await runClaude(gw.baseURL, keys['test']!.key, 'say hello');
    expect(out.type).to.equal('result');
    expect(out.is_error, JSON.stringify(out)).to.equal(false);
    expect(out.result).to.contain('This is a test response from alpha-sonnet-4-6.');
    expect(fake.requests).to.have.length(0);
  });

  for (const mode of ['off', 'flag'] as const) {
    it(`the CLI works with a live ${mode} key; the upstream sees its system-role message as sent`, async function () {
      const out = await runClaude(gw.baseURL, keys[`live-${mode}`]!.key, `Reply to ${PROMPT_EMAIL}`);
      expect(out.is_error, JSON.stringify(out)).to.equal(false);
      expect(out.result).to.contain(`Mock reply to:`).and.contain(PROMPT_EMAIL);
      const seen = upstreamMessage();
      const system = (seen.json as Fixture['body']).messages.find((m) => m.role === 'system');
      expect(JSON.stringify(system?.content)).to.contain(AGENT_EMAIL).and.contain(AGENT_PHONE);
    });
  }

  it('the CLI works with a live redact key, and no PII of its system-role message or prompt reaches the upstream', async function () {
    const out = await runClaude(gw.baseURL, keys['live-redact']!.key, `Reply to ${PROMPT_EMAIL}`);
    expect(out.is_error, JSON.stringify(out)).to.equal(false);
    const seen = upstreamMessage();
    for (const value of [AGENT_EMAIL, AGENT_PHONE, PROMPT_EMAIL]) expect(seen.rawBody).to.not.contain(value);
    const system = (seen.json as Fixture['body']).messages.find((m) => m.role === 'system');
    expect(JSON.stringify(system?.content)).to.contain('[REDACTED_EMAIL]').and.contain('[REDACTED_PHONE]');
    // The reply is left as the model wrote it: the fake echoed the redacted prompt.
    expect(out.result).to.contain('[REDACTED_EMAIL]').and.not.contain(PROMPT_EMAIL);
  });

  it('the CLI works with a live tokenise key: the upstream sees tokens, the CLI gets the originals back', async function () {
    const out = await runClaude(gw.baseURL, keys['live-tokenise']!.key, `Reply to ${PROMPT_EMAIL}`);
    expect(out.is_error, JSON.stringify(out)).to.equal(false);
    const seen = upstreamMessage();
    for (const value of [AGENT_EMAIL, AGENT_PHONE, PROMPT_EMAIL]) expect(seen.rawBody).to.not.contain(value);
    const system = (seen.json as Fixture['body']).messages.find((m) => m.role === 'system');
    expect(JSON.stringify(system?.content)).to.match(/\[EMAIL_\d+\]/).and.match(/\[PHONE_\d+\]/);
    // The fake echoed the tokenised prompt; the gateway restored it in the stream the CLI read.
    expect(out.result).to.contain(PROMPT_EMAIL).and.not.match(/\[EMAIL_\d+\]/);
  });
});
