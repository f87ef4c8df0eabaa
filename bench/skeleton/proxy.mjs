// The customer's architecture with nothing of the product in it, proxy side (`npm run bench:floor`): read the
// body, ask the policy on the stream, forward with undici, relay the answer (a stream chunk by chunk as it
// arrives, so time to first token compares), report on the stream. No key check, no privacy, no attestation, no
// metrics, no logs. Prints `{"port":N}` when listening.
import * as grpc from '@grpc/grpc-js';
import { createServer } from 'node:http';
import { Pool } from 'undici';

const json = { serialize: (o) => Buffer.from(JSON.stringify(o)), deserialize: (b) => JSON.parse(b.toString()) };
const Policy = grpc.makeGenericClientConstructor({
  session: {
    path: '/skeleton.Policy/Session', requestStream: true, responseStream: true,
    requestSerialize: json.serialize, requestDeserialize: json.deserialize, responseSerialize: json.serialize, responseDeserialize: json.deserialize,
  },
});
const stream = new Policy(`127.0.0.1:${process.env.POLICY_PORT}`, grpc.credentials.createInsecure()).session();
const waiting = new Map();
let nextId = 1;
stream.on('data', (m) => {
  waiting.get(m.id)?.(m);
  waiting.delete(m.id);
});
const upstream = new Pool(process.env.UPSTREAM_ORIGIN, { connections: 64 });
// The usage of a stream is in its message_delta event; the least a relay must read to report it.
const USAGE = /"type":"message_delta".*?"usage":(\{[^}]*\})/s;

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', async () => {
    const body = JSON.parse(Buffer.concat(chunks).toString());
    const id = nextId++;
    const decision = await new Promise((resolve) => {
      waiting.set(id, resolve);
      stream.write({ id, kind: 'decide', model: body.model });
    });
    if (!decision.allow) {
      res.writeHead(403);
      return res.end();
    }
    const up = await upstream.request({ path: '/v1/messages', method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...body, model: 'upstream-id' }) });
    if (body.stream === true) {
      res.writeHead(up.statusCode, { 'content-type': up.headers['content-type'] ?? 'text/event-stream', 'cache-control': 'no-cache' });
      let seen = '';
      for await (const chunk of up.body) {
        res.write(chunk);
        seen += chunk;
      }
      res.end();
      const usage = USAGE.exec(seen)?.[1];
      process.nextTick(() => stream.write({ id: 0, kind: 'report', usage: usage === undefined ? null : JSON.parse(usage) }));
      return;
    }
    const text = await up.body.text();
    res.writeHead(up.statusCode, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
    process.nextTick(() => stream.write({ id: 0, kind: 'report', usage: JSON.parse(text).usage }));
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`));
// A clean exit on SIGTERM, so that `--cpu-prof` writes its profile.
process.once('SIGTERM', () => process.exit(0));
