import { expect } from 'chai';
import * as grpc from '@grpc/grpc-js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { policyServiceConstructor, type DecisionWire, type SessionRequest, type SessionResponse } from '@gateway/shared';
import { startService, type ServiceProcess } from './harness/gateway.js';
import { verifyIndependently, type Jwk } from './harness/attestation-verifier.js';

const KEY_OK = `gw_test_${'A'.repeat(32)}`;
const KEY_LIMITED = `gw_test_${'B'.repeat(32)}`;
const KEY_UNKNOWN = `gw_test_${'C'.repeat(32)}`;
const IDENTITY = { key_id: 'key_old1', account_id: 'acct_old1', environment: 'test', residency: 'eu', privacy_mode: 'off' };
const ROUTE = { upstream_model: 'eu.anthropic.alpha-sonnet-5-v1:0', call_region: 'eu-central-1', processing_regions: ['eu-central-1', 'eu-west-1'] };

/**
 * A policy service as it was before the attestation fields: its answers set none of them (on the wire, exactly what
 * an older build sends). It allows one key, refuses another with a 429 (no key named on the refusal) and does not
 * know a third.
 */
function olderDecision(req: SessionRequest): DecisionWire {
  const key = req.decide?.caller.api_key;
  const base = { decision_id: `dec_${req.id}`, rate_limit: { limit: 10, remaining: 5, reset_unix: Math.floor(Date.now() / 1000) + 60 } };
  if (key === KEY_OK) {
    return { ...base, outcome: 'allow', allow: { key: IDENTITY, model: 'alpha-sonnet-5', route: ROUTE, lease_id: 'lease_1', lease_expires_unix_ms: Date.now() + 30_000, reserved_units: 0 } } as unknown as DecisionWire;
  }
  const deny = key === KEY_LIMITED
    ? { http_status: 429, error_type: 'rate_limit_error', message: 'Rate limit exceeded', retry_after_seconds: 30, should_retry: '', code: 'rate_limited_window' }
    : { http_status: 401, error_type: 'authentication_error', message: 'invalid x-api-key', retry_after_seconds: 0, should_retry: '', code: 'key_unknown' };
  return { ...base, ...(key === KEY_LIMITED ? {} : { rate_limit: null }), outcome: 'deny', deny } as unknown as DecisionWire;
}

describe('attestation with a policy service that predates its fields (mixed versions)', function () {
  this.timeout(30_000);
  let server: grpc.Server;
  let proxy: ServiceProcess;
  let port = 0;
  let dataDir: string;

  before(async function () {
    server = new grpc.Server();
    server.addService(policyServiceConstructor().service, {
      Session: (call: grpc.ServerDuplexStream<SessionRequest, SessionResponse>) => {
        call.on('data', (req: SessionRequest) => {
          if (req.body === 'decide') call.write({ id: req.id, body: 'decision', decision: olderDecision(req) } as SessionResponse);
          if (req.body === 'report') call.write({ id: req.id, body: 'ack', ack: { recorded: true } } as SessionResponse);
        });
        call.on('end', () => call.end());
      },
      Health: (_call: unknown, cb: grpc.sendUnaryData<object>) => cb(null, { counter_store_ok: true, database_ok: true }),
      RenewLeases: (_call: unknown, cb: grpc.sendUnaryData<object>) => cb(null, { unknown_lease_ids: [], revoked_key_ids: [] }),
      WatchRevocations: () => undefined,
      ReportUsage: (_call: unknown, cb: grpc.sendUnaryData<object>) => cb(null, { recorded: true }),
    });
    const policyPort = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) => (err === null ? resolve(p) : reject(err))));
    dataDir = mkdtempSync(join(tmpdir(), 'gw-mixed-'));
    proxy = startService('proxy', 'proxy/dist/src/main.js', {
      GATEWAY_DATA_DIR: dataDir, POLICY_ADDR: `127.0.0.1:${policyPort}`, PORT: '0', HOST: '127.0.0.1', METRICS_PORT: '0', METRICS_HOST: '127.0.0.1', DRAIN_GRACE_MS: '0', DRAIN_TIMEOUT_MS: '1000',
    });
    port = (await proxy.waitFor((l) => l.msg === 'proxy listening'))['port'] as number;
  });
  after(async function () {
    await proxy?.stop();
    server?.forceShutdown();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const post = (key: string) => fetch(`http://127.0.0.1:${port}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify({ model: 'alpha-sonnet-5', max_tokens: 10, messages: [{ role: 'user', content: 'old policy' }] }),
  });
  const jwks = async () => (await (await fetch(`http://127.0.0.1:${port}/v1/attestation/keys`)).json()) as { keys: Jwk[] };

  it('is ready (no residency_pending from an older service), and signs what it knows of an admitted request', async function () {
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).to.equal(200);
    const res = await post(KEY_OK);
    expect(res.status).to.equal(200);
    const v = verifyIndependently(res.headers.get('x-gateway-attestation') as string, await jwks());
    if (!v.ok) throw new Error(v.reason);
    expect(v.payload).to.include({ key_id: 'key_old1', account_id: 'acct_old1', environment: 'test', residency: 'eu', status: 200 });
    expect(v.payload).to.include({ catalogue_sha256: null, regions_basis: 'declared', evidence_at: null, upstream_model: ROUTE.upstream_model });
    expect(v.payload['forwarded_body_sha256']).to.match(/^[0-9a-f]{64}$/);
  });

  it('attests a refusal without a key as far as it can (identity unknown), and never a 401', async function () {
    const limited = await post(KEY_LIMITED);
    expect(limited.status).to.equal(429);
    const v = verifyIndependently(limited.headers.get('x-gateway-attestation') as string, await jwks());
    if (!v.ok) throw new Error(v.reason);
    expect(v.payload).to.include({ status: 429, key_id: null, account_id: null, environment: null, residency: null, privacy_mode: null, catalogue_sha256: null });
    const unknown = await post(KEY_UNKNOWN);
    expect(unknown.status).to.equal(401);
    expect(unknown.headers.get('x-gateway-attestation')).to.equal(null);
  });
});
