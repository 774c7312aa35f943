// opencode's own reply routes, through the client it handed the plugin. Verified live against
// opencode 1.18.33: that is the v1 SDK client served in-process (`serverUrl` is not listening in
// the TUI), so replies go through its inner HTTP client.
import type { Bag } from './config';
import { bag } from './config';

interface Route {
  url: string;
  path: { requestID: string };
  body?: object;
  headers?: Record<string, string>;
}

/** The inner client's `post`, called as its method; null when the client has none. */
function postOf(client: unknown): ((route: Route) => Promise<unknown>) | null {
  const http = bag(bag(client)?._client);
  const post = http?.post;
  if (http === null || typeof post !== 'function') return null;
  return async (route) => {
    const answer: unknown = Reflect.apply(post, http, [route]);
    return await answer;
  };
}

/** Sends the person's decision for the request `id` (a permission's or a question's). */
export async function reply(client: unknown, type: string, id: string, decision: Bag): Promise<void> {
  const post = postOf(client);
  if (post === null) return;
  const json = { 'Content-Type': 'application/json' };
  if (type === 'permission.asked') {
    const body = decision.behavior === 'allow' ? { reply: 'once' } : decision.message ? { reply: 'reject', message: decision.message } : { reply: 'reject' };
    await post({ url: '/permission/{requestID}/reply', path: { requestID: id }, body, headers: json });
  } else if (decision.behavior === 'answers') {
    await post({ url: '/question/{requestID}/reply', path: { requestID: id }, body: { answers: decision.answers }, headers: json });
  } else if (decision.behavior === 'deny') {
    await post({ url: '/question/{requestID}/reject', path: { requestID: id } });
  }
}
