import type { Request, Response } from 'express';
import type { ProxyDeps } from '../proxy-deps.js';

/** Alive: the process answers. */
export function healthRoute() {
  return (_req: Request, res: Response): void => {
    res.status(200).json({ status: 'ok' });
  };
}

/** Ready: not draining, the policy service answers and its counter store is reachable. */
export function readyRoute(deps: ProxyDeps) {
  return async (_req: Request, res: Response): Promise<void> => {
    // Draining: not ready, whatever the policy service says, so load balancers stop sending new requests.
    if (deps.lifecycle.draining) {
      res.status(503).json({ status: 'draining', policy: null });
      return;
    }
    const ready = await deps.policy.ready();
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'unavailable', policy: ready });
  };
}
