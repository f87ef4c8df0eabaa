// The customer's architecture with nothing of the product in it, policy side (`npm run bench:floor`): one
// bidirectional gRPC stream; each message becomes one Redis script, and a decision is answered when it returns.
// JSON on the wire instead of protobuf, no keys, no limits, no ledger. Prints `{"port":N}` when listening.
import * as grpc from '@grpc/grpc-js';
import { Redis } from 'ioredis';

const redis = new Redis(process.env.REDIS_URL, { enableAutoPipelining: true });
const sha = await redis.script('LOAD', "return redis.call('INCR', KEYS[1])");
const json = { serialize: (o) => Buffer.from(JSON.stringify(o)), deserialize: (b) => JSON.parse(b.toString()) };
export const SESSION = {
  path: '/skeleton.Policy/Session', requestStream: true, responseStream: true,
  requestSerialize: json.serialize, requestDeserialize: json.deserialize, responseSerialize: json.serialize, responseDeserialize: json.deserialize,
};

const server = new grpc.Server();
server.addService({ session: SESSION }, {
  session(call) {
    call.on('data', (m) => {
      void redis.evalsha(sha, 1, m.kind === 'decide' ? 'skeleton:decisions' : 'skeleton:reports').then((n) => {
        if (m.kind === 'decide') call.write({ id: m.id, allow: true, n });
      });
    });
    call.on('end', () => call.end());
  },
});
server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, port) => {
  if (err) throw err;
  process.stdout.write(`${JSON.stringify({ port })}\n`);
});
// A clean exit on SIGTERM, so that `--cpu-prof` writes its profile.
process.once('SIGTERM', () => process.exit(0));
