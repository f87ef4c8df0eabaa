import type { RateLimitPosition, Route } from '@gateway/shared';
import type { ServerResponse } from 'node:http';

// The reset of the per-minute window changes once a minute: its text is kept, not formatted on every response
// (a Date, toISOString and a regex replace were ~5 µs a request in the proxy's profile under load).
let lastSeconds = Number.NaN;
let lastText = '';

/** RFC 3339 with a numeric offset: `2026-11-21T12:35:00+00:00`. */
export function rfc3339(unixSeconds: number): string {
  if (unixSeconds !== lastSeconds) {
    lastText = new Date(unixSeconds * 1000).toISOString().replace(/\.\d{3}Z$/, '+00:00');
    lastSeconds = unixSeconds;
  }
  return lastText;
}

/** The binding per-minute window, on every response to a key that passed the IP check. */
export function setRateLimitHeaders(res: ServerResponse, p: RateLimitPosition | null): void {
  if (p === null || res.headersSent) return;
  res.setHeader('compat-ratelimit-requests-limit', String(p.limit));
  res.setHeader('compat-ratelimit-requests-remaining', String(p.remaining));
  res.setHeader('compat-ratelimit-requests-reset', rfc3339(p.reset_unix));
}

/** How the request was routed (test keys: the route a live call would have taken). */
export function setRoutingHeaders(res: ServerResponse, residency: string, route: Route): void {
  res.setHeader('x-gateway-residency', residency);
  res.setHeader('x-gateway-regions', route.processing_regions.join(','));
  res.setHeader('x-gateway-model', route.upstream_model);
}
