import { expect } from 'chai';
import * as grpc from '@grpc/grpc-js';
import { POLICY_SERVICE_NAME, policyServiceConstructor, type SessionRequest, type SessionResponse } from '@gateway/shared';
import { eagerSendInterceptor } from '../src/eager-send-interceptor.js';

const SESSION_PATH = `/${POLICY_SERVICE_NAME}/Session`;
const ANSWERS = 50;

/**
 * A server whose Session answers its first message with ANSWERS acks written in one turn, then ends; resolves
 * with what the client received, in order, and how many answers the server's stream still held back right
 * after writing them.
 */
async function answersInOneTurn(interceptors: grpc.ServerInterceptor[]): Promise<{ ids: number[]; heldBack: number; code: grpc.status }> {
  const server = new grpc.Server({ interceptors });
  let heldBack = -1;
  server.addService(policyServiceConstructor().service, {
    Session: (call: grpc.ServerDuplexStream<SessionRequest, SessionResponse>) => {
      call.once('data', () => {
        for (let id = 1; id <= ANSWERS; id += 1) call.write({ id, body: 'ack', ack: { recorded: true } });
        heldBack = call.writableLength;
        call.end();
      });
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) => (err === null ? resolve(p) : reject(err))),
  );
  const Client = policyServiceConstructor();
  const client = new Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  try {
    const stream = (client as unknown as { Session: () => grpc.ClientDuplexStream<SessionRequest, SessionResponse> }).Session();
    const ids: number[] = [];
    stream.on('data', (res: SessionResponse) => ids.push(res.id));
    const status = new Promise<grpc.status>((resolve) => stream.on('status', (s: grpc.StatusObject) => resolve(s.code)));
    stream.write({ id: 1 } as SessionRequest);
    const code = await status;
    return { ids, heldBack, code };
  } finally {
    client.close();
    server.forceShutdown();
  }
}

describe('eagerSendInterceptor: the answers of one turn leave together, in order', function () {
  const inOrder = Array.from({ length: ANSWERS }, (_, i) => i + 1);

  it('hands every answer written in one turn to HTTP/2 at once, and the client gets them all, in order', async function () {
    const r = await answersInOneTurn([eagerSendInterceptor([SESSION_PATH])]);
    expect(r.heldBack).to.equal(0);
    expect(r.ids).to.deep.equal(inOrder);
    expect(r.code).to.equal(grpc.status.OK);
  });

  it('without it, grpc-js holds the answers back, handing on the next only once the write before it completed (why it exists)', async function () {
    const r = await answersInOneTurn([]);
    expect(r.heldBack).to.be.greaterThan(0);
    expect(r.ids).to.deep.equal(inOrder);
  });

  it('leaves methods it is not given alone', async function () {
    const r = await answersInOneTurn([eagerSendInterceptor(['/some.other.Service/Method'])]);
    expect(r.heldBack).to.be.greaterThan(0);
    expect(r.ids).to.deep.equal(inOrder);
  });
});
