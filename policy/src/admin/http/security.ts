import type { NextFunction, Request, Response } from 'express';
import { newRequestId } from '@gateway/shared';

/**
 * Headers on every admin response: no inline script may run (the CSP allows only our own /assets), no page may be
 * framed, nothing is cached (pages can hold a secret shown once), and each response has a request id.
 */
export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; " +
  "frame-ancestors 'none'; base-uri 'none'; connect-src 'self'";

export function securityHeaders(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('request-id', newRequestId());
  res.setHeader('content-security-policy', CONTENT_SECURITY_POLICY);
  res.setHeader('x-frame-options', 'DENY');
  res.setHeader('x-content-type-options', 'nosniff');
  res.setHeader('referrer-policy', 'no-referrer');
  res.setHeader('cross-origin-opener-policy', 'same-origin');
  res.setHeader('cache-control', 'no-store');
  next();
}

/** One cookie's value from the Cookie header (RFC 6265 pairs; values here are base64url, never quoted). */
export function cookieValue(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** Loopback peers (the admin port's default bind) may use plain HTTP; anything else gets `Secure` cookies. */
export function isLoopback(address: string | undefined): boolean {
  return address !== undefined && (address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.'));
}

export function setCookie(req: Request, res: Response, name: string, value: string, maxAgeSeconds: number): void {
  const secure = isLoopback(req.socket.remoteAddress) ? '' : '; Secure';
  res.append('set-cookie', `${name}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${secure}`);
}

/** The admin port is not behind the proxy's trusted-proxy logic: its source address is the socket's peer. */
export function sourceAddress(req: Request): string {
  return req.socket.remoteAddress ?? 'unknown';
}
