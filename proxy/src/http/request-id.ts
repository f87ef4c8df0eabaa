import { newRequestId } from '@gateway/shared';
import type { Response } from 'express';

/** The id app.ts gave this request (every response carries it as `request-id`; routes and logs use the same). */
export function requestIdOf(res: Response): string {
  const id: unknown = res.locals['requestId'];
  return typeof id === 'string' ? id : newRequestId();
}
