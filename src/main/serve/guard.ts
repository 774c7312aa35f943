// Who may talk to `lookout serve`: loopback only, the right Host (no DNS rebinding), no foreign
// Origin, and the per-run token on every request.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export interface Guard {
  token: string;
  port: number;
}

function sameToken(given: string | null, token: string): boolean {
  if (given === null) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function allowedHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
}

/**
 * Null when the request may proceed, else the status and reason to refuse it with. The page and
 * its assets hold no secret (`needsToken` false): everything that reads or changes state does.
 */
export function refuse(request: IncomingMessage, url: URL, guard: Guard, needsToken = true, queryToken = false): { status: number; reason: string } | null {
  const host = request.headers.host ?? '';
  if (!allowedHosts(guard.port).has(host)) return { status: 403, reason: 'foreign Host' };
  const origin = request.headers.origin;
  if (origin !== undefined && !allowedHosts(guard.port).has(origin.replace(/^http:\/\//, ''))) return { status: 403, reason: 'foreign Origin' };
  const site = request.headers['sec-fetch-site'];
  if (site === 'cross-site') return { status: 403, reason: 'cross-site request' };
  if (!needsToken) return null;
  return hasToken(request, url, guard, queryToken) ? null : { status: 401, reason: 'missing or wrong token' };
}

/**
 * The request carries the run's token: in a header, or — only where a browser cannot set one
 * (the page's first load, the event stream) — in the query.
 */
export function hasToken(request: IncomingMessage, url: URL, guard: Guard, queryToken: boolean): boolean {
  const header = request.headers['x-lookout-token'];
  return sameToken(typeof header === 'string' ? header : queryToken ? url.searchParams.get('token') : null, guard.token);
}
