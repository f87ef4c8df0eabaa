// The customer's architecture with nothing of the product in it, proxy side (`npm run bench:floor`): read the
// body, ask the policy on the stream, forward with undici, relay the answer, report on the stream. No key check,
// no privacy, no attestation, no metrics, no logs. Prints `{"port":N}` when listening.
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
    const text = await up.body.text();
    res.writeHead(up.statusCode, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
    process.nextTick(() => stream.write({ id: 0, kind: 'report', usage: JSON.parse(text).usage }));
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`));
