// Which PostgreSQL client the policy service uses (docs/decisions.md): `pg` (node-postgres) against `postgres`
// (porsager), each timing a point lookup by primary key (a key-hash lookup) and an insert round trip, one at a
// time on loopback against a throwaway server the test harness starts. `postgres` is not a dependency of the
// gateway: install it beside this script to rerun (npm i --no-save postgres), then
//   npx tsc -b && node bench/pg-clients.mjs [rounds]
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { TestPostgres } from '../policy/dist/test/support/postgres-harness.js';

const ROUNDS = Number(process.argv[2] ?? 5000);
const WARMUP = 500;
let postgresJs;
try {
  postgresJs = (await import('postgres')).default;
} catch {
  console.error('postgres (porsager) is not installed: npm i --no-save postgres');
  process.exit(1);
}

const server = await TestPostgres.start();
const url = await server.createDatabase('bench');
const setup = new pg.Client({ connectionString: url });
await setup.connect();
await setup.query(`CREATE TABLE keys (key_hash TEXT PRIMARY KEY, account_id TEXT NOT NULL, name TEXT NOT NULL, created_at TEXT NOT NULL)`);
await setup.query(`CREATE TABLE events (id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, entity TEXT NOT NULL, entity_id TEXT NOT NULL, at_ms BIGINT NOT NULL)`);
await setup.query(`INSERT INTO keys SELECT md5(i::text), 'acct_' || (i % 100), 'key ' || i, now()::text FROM generate_series(1, 10000) i`);
await setup.end();
const hashes = Array.from({ length: 10000 }, (_, i) => i + 1);

function summary(samples) {
  const s = [...samples].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  const total = s.reduce((a, b) => a + b, 0);
  return { p50_us: Math.round(q(0.5) * 1000), p99_us: Math.round(q(0.99) * 1000), per_s: Math.round((s.length / total) * 1000) };
}

async function time(fn) {
  for (let i = 0; i < WARMUP; i++) await fn(i);
  const samples = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t = performance.now();
    await fn(i);
    samples.push(performance.now() - t);
  }
  return summary(samples);
}

const { createHash } = await import('node:crypto');
const md5 = (n) => createHash('md5').update(String(n)).digest('hex');

const results = {};
for (let pass = 0; pass < 2; pass++) {
  {
    const pool = new pg.Pool({ connectionString: url, max: 4 });
    results[`pg lookup #${pass + 1}`] = await time((i) => pool.query({ name: 'lookup', text: 'SELECT * FROM keys WHERE key_hash = $1', values: [md5(hashes[i % hashes.length])] }));
    results[`pg insert #${pass + 1}`] = await time((i) => pool.query({ name: 'insert', text: 'INSERT INTO events (entity, entity_id, at_ms) VALUES ($1, $2, $3)', values: ['key', `k${i}`, Date.now()] }));
    await pool.end();
  }
  {
    const sql = postgresJs(url, { max: 4, onnotice: () => undefined });
    results[`postgres lookup #${pass + 1}`] = await time((i) => sql`SELECT * FROM keys WHERE key_hash = ${md5(hashes[i % hashes.length])}`);
    results[`postgres insert #${pass + 1}`] = await time((i) => sql`INSERT INTO events (entity, entity_id, at_ms) VALUES (${'key'}, ${`k${i}`}, ${Date.now()})`);
    await sql.end();
  }
}
await server.dispose();
console.log(JSON.stringify({ rounds: ROUNDS, node: process.version, results }, null, 2));
