import type { Request, Response } from 'express';

// Clients probe `GET /` or `HEAD /` to check connectivity before their first call (the Claude Code CLI sends
// HEAD / at start). No key is needed, so the body names the service and nothing about keys or accounts.
const BODY = JSON.stringify({ service: 'model-gateway', api: '/v1', status: 'ok' });

/** GET / and HEAD / (express answers HEAD from the GET route, without the body). */
export function rootRoute() {
  return (_req: Request, res: Response): void => {
    res.status(200).type('application/json').send(BODY);
  };
}
