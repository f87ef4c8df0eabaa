/**
 * What the proxy's primary and its workers say to each other over the cluster's IPC channel, beside prom-client's
 * own metrics messages. Readiness only: requests never cross it (the primary hands connections, not requests).
 */

/** worker → primary: are the other workers ready? (for this worker's /readyz) */
export interface PeersQuery {
  gw: 'peers?';
  id: number;
}

/** primary → worker: the answer to a PeersQuery. */
export interface PeersAnswer {
  gw: 'peers';
  id: number;
  /** every worker the primary keeps is running, listening, and answered ready */
  ready: boolean;
  /** workers that answered ready, this one included, out of `workers` */
  workersReady: number;
  workers: number;
}

/** primary → worker: are you ready? */
export interface ReadyQuery {
  gw: 'ready?';
  id: number;
}

/** worker → primary */
export interface ReadyAnswer {
  gw: 'ready';
  id: number;
  ready: boolean;
}

export type ClusterMessage = PeersQuery | PeersAnswer | ReadyQuery | ReadyAnswer;

export function isClusterMessage(m: unknown): m is ClusterMessage {
  if (typeof m !== 'object' || m === null) return false;
  const { gw, id } = m as { gw?: unknown; id?: unknown };
  return (gw === 'peers?' || gw === 'peers' || gw === 'ready?' || gw === 'ready') && typeof id === 'number';
}
