// Issue 47 item 7: change lines that do not validate, three in a row with no good line between,
// cut the link as any bad line does (docs/hosts.md), and the link comes back only after its backoff.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HostLink } from '../../src/main/hosts/host-link';
import { waitFor } from '../wait';

const base = mkdtempSync(join(tmpdir(), 'lookout-invalid-changes-'));

afterAll(() => {
  rmSync(base, { recursive: true, force: true });
});

/** A stand-in for ssh that runs a scripted feed: it answers the hello, then sends 30 change lines that do not validate. */
function fakeSsh(): { ssh: string; starts: string } {
  const starts = join(base, 'starts');
  const ssh = join(base, 'ssh');
  writeFileSync(
    ssh,
    `#!${process.execPath}
require('node:fs').appendFileSync(${JSON.stringify(starts)}, Date.now() + '\\n');
const head = { schemaVersion: 1, now: new Date().toISOString(), attention: { count: 0, level: 'none', needYou: 0, review: 0, working: 0 } };
const out = (line) => process.stdout.write(JSON.stringify({ ...head, ...line }) + '\\n');
require('node:readline').createInterface({ input: process.stdin }).on('line', (text) => {
  const message = JSON.parse(text);
  if (message.type !== 'hello') return;
  out({ sessions: [], seq: 1, answered: message.id, lookout: { version: 'peer', protocol: 2 } });
  for (let seq = 2; seq < 32; seq += 1) out({ sessions: [{ key: 'not a row' }], removed: [], seq, delta: true });
});
`,
  );
  chmodSync(ssh, 0o755);
  return { ssh, starts };
}

describe('issue 47 item 7', () => {
  it('issue 47 item 7: three invalid change lines in a row cut the link (the rest unread), which comes back only after its backoff', async () => {
    const { ssh } = fakeSsh();
    const problems: string[] = [];
    const cuts: number[] = [];
    let host: HostLink | null = null;
    const made = new HostLink(
      { name: 'devbox', destination: 'devbox', command: 'lookout' },
      {
        clock: Date.now,
        env: {},
        ssh,
        // Each end of a connection is one change with the status failed.
        onChange: () => {
          if (host?.view().status.kind === 'failed') cuts.push(Date.now());
        },
        onProblem: (line) => problems.push(line),
      },
    );
    host = made;
    made.start();
    try {
      await waitFor(
        'the link cut',
        () => (made.view().status.kind === 'failed' ? true : undefined),
        () => JSON.stringify({ status: made.view().status, stats: made.stats() }),
        { timeout: 10_000 },
      );
      const status = made.view().status;
      expect(status.kind === 'failed' ? status.reason : '').toMatch(
        /^devbox sent a line that is not a snapshot \(3 change lines in a row that do not validate: .*\); cut off$/,
      );
      // The hello's answer and three change lines: the 27 after them were never parsed.
      expect(made.stats().lines).toBe(4);
      expect(made.view().snapshot?.sessions).toEqual([]);
      // Retried after the backoff (1 s first), not at once; cut again the same way, said once.
      await waitFor(
        'a second connection cut',
        () => (made.stats().lines >= 8 && made.view().status.kind === 'failed' ? true : undefined),
        () => JSON.stringify(made.stats()),
        { timeout: 10_000 },
      );
      expect(made.stats().lines).toBe(8);
      expect(cuts).toHaveLength(2);
      expect((cuts[1] ?? 0) - (cuts[0] ?? 0)).toBeGreaterThanOrEqual(900);
      expect(problems.filter((line) => line.includes('3 change lines in a row'))).toHaveLength(1);
    } finally {
      made.dispose();
    }
  }, 30_000);
});
