// Other machines' claims on this machine's notifications (R40–R44, issue 25 item 8). A host can
// send any number of claims and change them on every line: at most HOST_CLAIMS_MAX of a host's
// rows may notify at once (the first in triage order; the rest are counted and said once), and a
// host is told at most once per HOST_NOTIFY_GAP_MS — what is due when its gap ends is told then,
// in one notification and one ledger write, whatever it sent meanwhile.
import type { NotifyCandidate, Row } from '../../engine';

/** Claims of one host that may notify from one snapshot (the notified ledger keeps 1,000 a host). */
const HOST_CLAIMS_MAX = 200;
/** One notification a host at most this often. */
const HOST_NOTIFY_GAP_MS = 5000;

export class RemoteNotices {
  /** When each host's claims were last told. */
  private readonly toldAt = new Map<string, number>();
  /** Hosts said to be over the cap (said again only after they came back under it). */
  private readonly over = new Set<string>();
  /** Whether the last rows carried any claim: the beat checks whether one came due by time alone. */
  claims = false;

  constructor(private readonly onProblem: (line: string) => void) {}

  /**
   * The candidates due now among other machines' rows (`due` turns rows into them: candidates,
   * then R40–R41), each host capped and paced; the hosts told start their gap.
   */
  due(rows: readonly Row[], now: number, due: (rows: readonly Row[]) => NotifyCandidate[]): NotifyCandidate[] {
    const claimed = rows.filter((row) => row.host !== null && row.claim !== null);
    this.claims = claimed.length > 0;
    if (!this.claims) return [];
    const hostOf = new Map<string, string>();
    const counts = new Map<string, number>();
    const taken: Row[] = [];
    for (const row of claimed) {
      const host = row.host ?? '';
      const count = (counts.get(host) ?? 0) + 1;
      counts.set(host, count);
      if (count > HOST_CLAIMS_MAX) continue;
      hostOf.set(row.key, host);
      if (now - (this.toldAt.get(host) ?? Number.NEGATIVE_INFINITY) >= HOST_NOTIFY_GAP_MS) taken.push(row);
    }
    this.sayOver(counts);
    const told = due(taken);
    for (const candidate of told) this.toldAt.set(hostOf.get(candidate.key) ?? '', now);
    return told;
  }

  private sayOver(counts: ReadonlyMap<string, number>): void {
    for (const host of [...this.over]) if ((counts.get(host) ?? 0) <= HOST_CLAIMS_MAX) this.over.delete(host);
    for (const [host, count] of counts) {
      if (count <= HOST_CLAIMS_MAX || this.over.has(host)) continue;
      this.over.add(host);
      this.onProblem(
        `lookout: host ${host} shows ${count} claims at once; only its first ${HOST_CLAIMS_MAX} may notify here (${count - HOST_CLAIMS_MAX} not told)`,
      );
    }
  }
}
