// The requests the channel's owner holds, written for every Lookout process of this user (the
// command line, a second face): the rows show them, whoever owns the socket. Derived state,
// rewritten on each change; read only while its owner runs.
import type { AnswerRequest } from '../../engine';
import { sessionKey } from '../../engine';
import { pidAlive } from '../../providers/system/process';
import { writePrivate } from '../../providers/system/private-files';
import { READ_CAPS } from '../../providers/system/safe-read';
import { WholeFiles } from '../../providers/system/whole-file';
import type { HeldRequest } from './broker';
import { requestsPath } from './paths';

export function writeRequests(home: string, held: readonly HeldRequest[]): void {
  const requests = held.map(({ provider, sessionId, request }) => ({ provider, sessionId, request }));
  writePrivate(requestsPath(home), `${JSON.stringify({ owner: process.pid, requests })}\n`);
}

export type RequestsBySession = ReadonlyMap<string, AnswerRequest[]>;
const NONE: RequestsBySession = new Map();

/** Reads the file again only when it changed; the very same map while it did not. */
export class RequestsReader {
  private stamp = '';
  private last: RequestsBySession = NONE;
  private owner = 0;
  // The JSON as written; unreadable or not JSON: nothing held (kept until the file changes).
  private readonly file = new WholeFiles<unknown>({
    cap: READ_CAPS.config,
    parse: (text) => ({ value: jsonOrNull(text) }),
    unreadable: () => ({ value: null }),
  });

  constructor(private readonly home: string) {}

  async read(): Promise<RequestsBySession> {
    const found = this.file.read(requestsPath(this.home));
    if (found.kind === 'gone') return this.settle('', NONE, 0);
    const { stamp } = found;
    // The owner gone (a crash): nothing it held waits any more.
    if (stamp === this.stamp) return this.owner !== 0 && !pidAlive(this.owner) ? this.settle(stamp, NONE, 0) : this.last;
    try {
      // The schemas (and the answer protocol's, and the contract's they build on) load only when
      // a channel holds requests: a plain status does not build them (issue 27).
      const { requestsFileSchema } = await import('./requests-schema');
      const parsed = requestsFileSchema.safeParse(found.value);
      if (!parsed.success || !pidAlive(parsed.data.owner)) return this.settle(stamp, NONE, 0);
      const map = new Map<string, AnswerRequest[]>();
      for (const { provider, sessionId, request } of parsed.data.requests) {
        const key = sessionKey(provider, sessionId);
        map.set(key, [...(map.get(key) ?? []), request]);
      }
      return this.settle(stamp, map, parsed.data.owner);
    } catch {
      return this.settle(stamp, NONE, 0);
    }
  }

  private settle(stamp: string, map: RequestsBySession, owner: number): RequestsBySession {
    if (map.size === 0 && this.last.size === 0) map = this.last;
    this.stamp = stamp;
    this.last = map;
    this.owner = owner;
    return map;
  }
}

/** The text as JSON; null when it is not (caught mid-write): the schema refuses it. */
function jsonOrNull(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
