import { expect } from 'chai';
import type * as grpc from '@grpc/grpc-js';
import { createLogger, type PolicyTarget } from '@gateway/shared';
import { PolicyReplicas, type Replica } from '../src/policy-replicas.js';
import type { PolicySession } from '../src/policy-session.js';

/** What the replica set reads of a decision stream, set by each test. */
class FakeSession {
  usable = true;
  draining = false;
  busy = false;
  ended = 0;
  closed = false;
  onChange: () => void = () => undefined;
  endIfIdle(): boolean {
    if (!this.draining || this.busy) return false;
    this.ended += 1;
    this.draining = false;
    this.usable = false;
    return true;
  }
  close(): void {
    this.closed = true;
  }
}

const log = createLogger('test', 'silent');

function replicaSet(target: PolicyTarget, resolve?: (host: string) => Promise<string[]>, everyMs?: number) {
  const sessions = new Map<string, FakeSession>();
  const added: string[] = [];
  const set = new PolicyReplicas(
    target,
    (address): Replica => {
      const session = new FakeSession();
      sessions.set(address, session);
      return { address, client: { close: () => undefined } as unknown as grpc.Client, session: session as unknown as PolicySession };
    },
    log,
    (r) => added.push(r.address),
    resolve,
    everyMs,
  );
  return { set, sessions, added };
}

const keys = Array.from({ length: 300 }, (_, i) => `gw_live_${String(i).padStart(32, 'k')}`);

describe('PolicyReplicas: keys pinned to replicas by rendezvous hashing', () => {
  it('pins each key to one replica, spreads keys over all, and moves only a departed replica\'s keys', async () => {
    const { set, sessions } = replicaSet({ kind: 'list', addresses: ['p1:1', 'p2:1', 'p3:1'] });
    await set.start();
    const first = new Map(keys.map((k) => [k, set.forKey(k)[0]?.address]));
    expect(new Map(keys.map((k) => [k, set.forKey(k)[0]?.address])), 'stable').to.deep.equal(first);
    const counts = ['p1:1', 'p2:1', 'p3:1'].map((a) => [...first.values()].filter((v) => v === a).length);
    for (const c of counts) expect(c).to.be.within(60, 140);
    // p2 stops answering: only its keys move, and each to its second choice.
    (sessions.get('p2:1') as FakeSession).usable = false;
    for (const k of keys) {
      const now = set.forKey(k);
      if (first.get(k) !== 'p2:1') expect(now[0]?.address, k).to.equal(first.get(k));
      else expect(now[0]?.address).to.not.equal('p2:1');
      expect(now.at(-1)?.address, 'the unusable replica last').to.equal('p2:1');
    }
    set.close();
    expect([...sessions.values()].every((s) => s.closed)).to.equal(true);
  });

  it('ranks a draining replica after the others, and ends its stream once idle when another can decide', async () => {
    const { set, sessions } = replicaSet({ kind: 'list', addresses: ['p1:1', 'p2:1'] });
    await set.start();
    const p1 = sessions.get('p1:1') as FakeSession;
    const p2 = sessions.get('p2:1') as FakeSession;
    const pinnedToP1 = keys.find((k) => set.forKey(k)[0]?.address === 'p1:1') as string;
    p1.draining = true;
    p1.busy = true;
    p1.onChange();
    expect(set.forKey(pinnedToP1).map((r) => r.address)).to.deep.equal(['p2:1', 'p1:1']);
    expect(p1.ended, 'not while it carries something').to.equal(0);
    p1.busy = false;
    p1.onChange();
    expect(p1.ended).to.equal(1);
    // Alone, a draining replica is still used and its stream kept: there is nowhere else to decide.
    p1.draining = true;
    p1.usable = true;
    p2.usable = false;
    p1.onChange();
    expect(p1.ended).to.equal(1);
    expect(set.canDecide()).to.equal(false);
    expect(set.forKey(pinnedToP1)[0]?.address).to.equal('p1:1');
    set.close();
  });

  it('follows a DNS name: adds and removes replicas as it resolves, and keeps them when resolving fails', async () => {
    let answer: string[] | Error = ['10.0.0.1', '10.0.0.2'];
    const { set, sessions, added } = replicaSet({ kind: 'dns', host: 'policy.svc', port: 50051 }, async () => {
      if (answer instanceof Error) throw answer;
      return answer;
    }, 20);
    await set.start();
    expect(set.all().map((r) => r.address).sort()).to.deep.equal(['10.0.0.1:50051', '10.0.0.2:50051']);
    answer = ['10.0.0.2', 'fd00::3'];
    await new Promise((r) => setTimeout(r, 60));
    expect(set.all().map((r) => r.address).sort()).to.deep.equal(['10.0.0.2:50051', '[fd00::3]:50051']);
    expect(sessions.get('10.0.0.1:50051')?.closed, 'a departed replica is closed').to.equal(true);
    answer = new Error('SERVFAIL');
    await new Promise((r) => setTimeout(r, 60));
    expect(set.all().map((r) => r.address).sort()).to.deep.equal(['10.0.0.2:50051', '[fd00::3]:50051']);
    expect(added).to.deep.equal(['10.0.0.1:50051', '10.0.0.2:50051', '[fd00::3]:50051']);
    set.close();
  });
});
