// Issue 27's wire figure: what one changed row of 2,000 costs a host link, over the test sshd,
// with the feed's protocol 2 (changes after a full snapshot) and protocol 1 (a full snapshot on
// every change, as a feed from before issue 27 sends), measured the same way in one run.
import { appendFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { HostLink } from '../../src/main/hosts/host-link';
import type { Sshd } from '../../test/hosts/sshd';
import { machine } from './hosts';
import { median } from './measure';

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** The host the feed's figure is measured against: its sshd must know this alias. */
export const FEED_HOST = 'devbox';

async function until(check: () => boolean, what: string, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`feed bytes: waited ${ms} ms for ${what}`);
    await sleep(20);
  }
}

/** Bytes on the wire for a full snapshot and for each of `changes` single-row changes. */
async function measure(
  sshd: Sshd,
  folder: string,
  rows: number,
  changes: number,
  protocols: readonly number[],
  cli: string,
): Promise<{ full: number; perChange: number[] }> {
  const host = machine(folder, `p${protocols.join('')}`, rows, cli);
  const link = new HostLink(
    { name: FEED_HOST, destination: FEED_HOST, command: host.command },
    { clock: Date.now, env: { LOOKOUT_SSH_CONFIG: sshd.config }, onChange: () => undefined, onProblem: () => undefined, protocols },
  );
  link.start();
  try {
    await until(() => (link.view().snapshot?.sessions.length ?? 0) === rows && link.view().lookout !== undefined, `${rows} rows`);
    await sleep(500);
    const full = link.stats().bytes / link.stats().lines;
    const perChange: number[] = [];
    for (let step = 0; step < changes; step += 1) {
      const file = host.files[(step * 13) % rows] ?? '';
      const id = basename(file, '.jsonl');
      const before = link.stats();
      appendFileSync(
        file,
        `${JSON.stringify({ parentUuid: null, isSidechain: false, type: 'user', message: { role: 'user', content: `step ${step}` }, uuid: `e0000000-0000-4000-8000-${step.toString(16).padStart(12, '0')}`, timestamp: new Date().toISOString(), cwd: '/home/me/app', sessionId: id, version: '2.1.143' })}\n`,
      );
      await until(() => link.view().snapshot?.sessions.find((row) => row.key === `claude:${id}`)?.observed.state === 'running', 'the change');
      const after = link.stats();
      perChange.push((after.bytes - before.bytes) / Math.max(1, after.lines - before.lines));
    }
    return { full, perChange };
  } finally {
    link.dispose();
  }
}

export async function feedBytesBench(sshd: Sshd, folder: string, quick: boolean, cli: string): Promise<void> {
  const rows = quick ? 300 : 2000;
  const changes = quick ? 3 : 10;
  const two = await measure(sshd, join(folder, 'feed-bytes'), rows, changes, [1, 2], cli);
  const one = await measure(sshd, join(folder, 'feed-bytes'), rows, changes, [1], cli);
  const ratio = (bytes: number, full: number) => `${((bytes / full) * 100).toFixed(2)} %`;
  console.log(
    `hosts: feed bytes when one row of ${rows} changes (median of ${changes}): protocol 2 ${median(two.perChange).toFixed(0)} B = ${ratio(median(two.perChange), two.full)} of its full snapshot (${(two.full / 1024).toFixed(0)} KB; target ≤ 5 %); protocol 1 ${median(one.perChange).toFixed(0)} B = ${ratio(median(one.perChange), one.full)}`,
  );
}
