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

/** Null when the request may proceed, else the status and reason to refuse it with. */
export function refuse(request: IncomingMessage, url: URL, guard: Guard): { status: number; reason: string } | null {
  const host = request.headers.host ?? '';
  if (!allowedHosts(guard.port).has(host)) return { status: 403, reason: 'foreign Host' };
  const origin = request.headers.origin;
  if (origin !== undefined && !allowedHosts(guard.port).has(origin.replace(/^http:\/\//, ''))) return { status: 403, reason: 'foreign Origin' };
  const site = request.headers['sec-fetch-site'];
  if (site === 'cross-site') return { status: 403, reason: 'cross-site request' };
  const header = request.headers['x-lookout-token'];
  const given = typeof header === 'string' ? header : url.searchParams.get('token');
  if (!sameToken(given, guard.token)) return { status: 401, reason: 'missing or wrong token' };
  return null;
}
