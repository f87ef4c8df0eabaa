import { newRequestId } from '@gateway/shared';
import type { NextFunction, Request, Response } from 'express';

/** Gives every response a `request-id`, health checks and 404s included; routes and logs use the same id. */
export function assignRequestId(_req: Request, res: Response, next: NextFunction): void {
  const id = newRequestId();
  res.locals['requestId'] = id;
  res.setHeader('request-id', id);
  next();
}

export function requestIdOf(res: Response): string {
  const id: unknown = res.locals['requestId'];
  return typeof id === 'string' ? id : newRequestId();
}
