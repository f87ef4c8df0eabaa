import type { Request, Response } from 'express';
import type { ProxyDeps } from '../proxy-deps.js';

/** Alive: the process answers. */
export function healthRoute() {
  return (_req: Request, res: Response): void => {
    res.status(200).json({ status: 'ok' });
  };
}

/**
 * Ready: not draining, the policy service answers, its counter store is reachable and (Bedrock) every route has been
 * resolved against the platform. `residency` lists each verified route's state and evidence age (empty where routes
 * are declared): a route refused there is not a reason to leave the load balancer, the others are served.
 */
export function readyRoute(deps: ProxyDeps) {
  return async (_req: Request, res: Response): Promise<void> => {
    // Draining: not ready, whatever the policy service says, so load balancers stop sending new requests.
    if (deps.lifecycle.draining) {
      res.status(503).json({ status: 'draining', policy: null });
      return;
    }
    const own = await deps.policy.readiness();
    // One of several workers: ready only when every worker is (any of them may get the next connection).
    const workers = own.ready && deps.peers !== undefined ? await deps.peers.peers() : undefined;
    const ready = own.ready && (workers?.ready ?? true);
    const routes = own.routes;
    res.status(ready ? 200 : 503).json({
      status: ready ? 'ready' : 'unavailable',
      policy: own.ready,
      ...(workers === undefined ? {} : { workers: { ready: workers.workersReady, of: workers.workers } }),
      residency: routes.map((r) => ({
        model: r.model,
        tier: r.tier,
        verified: r.verified,
        evidence_age_seconds: r.evidence_age_seconds < 0 ? null : Math.round(r.evidence_age_seconds),
      })),
    });
  };
}
