// Issue 25 item 8: other machines' claims on this machine's notifications — a bounded ledger per
// host, at most 200 claims of a host from one snapshot (the rest counted), a host's notifications
// coalesced. The host is a fake `ssh` on PATH printing prepared snapshot lines, paced.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { NotificationPlan, Row, Snapshot } from '../../../src/engine';
import type { Notifier } from '../../../src/main/notify/notifier';
import { Runtime } from '../../../src/main/runtime/runtime';
import { FactStore } from '../../../src/main/store/facts-store';

const base = mkdtempSync(join(tmpdir(), 'lookout-remote-notices-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const bin = join(base, 'bin');
mkdirSync(bin, { recursive: true });
const feed = join(base, 'feed.cjs');
// The host's feed: each line of the file named by LOOKOUT_TEST_FEED, LOOKOUT_TEST_EVERY ms apart, then connected until let go.
writeFileSync(
  feed,
  `const lines = require('node:fs').readFileSync(process.env.LOOKOUT_TEST_FEED, 'utf8').split('\\n').filter(Boolean);
const every = Number(process.env.LOOKOUT_TEST_EVERY);
let next = 0;
const write = () => { if (next < lines.length) { process.stdout.write(lines[next++] + '\\n'); setTimeout(write, every); } };
write();
setInterval(() => undefined, 1e9);
`,
);
writeFileSync(join(bin, 'ssh'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(feed)}\n`, { mode: 0o755 });

const T = Date.now() - 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

function row(index: number, since: number): Row {
  return {
    key: `claude:session-${index}`,
    host: null,
    provider: 'claude',
    sessionId: `session-${index}`,
    title: `session ${index}`,
    cwd: `/home/me/src/project-${index}`,
    branch: 'main',
    lastActivityAt: iso(since),
    observed: {
      state: 'awaiting-input',
      reason: 'question-pending',
      detail: 'asks: Which?',
      source: 'claude.transcript',
      confidence: 'inferred',
      at: iso(since),
    },
    children: { liveness: 'none', live: 0 },
    review: { state: 'unreviewed', by: null, at: null, newActivitySince: false },
    workflow: 'needs-input',
    claim: { kind: 'needs-you', since: iso(since), expiresAt: null, ambiguous: false, detail: 'asks: Which?' },
    muted: null,
    historical: false,
    triageRank: 1,
    band: 'needs-you',
    idleStale: false,
    resetsAt: null,
    answer: null,
  };
}

const line = (rows: Row[]): string =>
  JSON.stringify({
    schemaVersion: 1,
    now: iso(Date.now()),
    attention: { count: rows.length, level: 'needs-you', needYou: rows.length, review: 0, working: 0, limited: 0 },
    sessions: rows,
    limits: [],
  } satisfies Snapshot);

class Recorder implements Notifier {
  readonly plans: NotificationPlan[] = [];
  /** Called after each notification. */
  onPlan: () => void = () => undefined;
  send(plan: NotificationPlan): Promise<void> {
    this.plans.push(plan);
    queueMicrotask(() => this.onPlan());
    return Promise.resolve();
  }
}

let made = 0;
/** This machine, with one host `devbox` whose feed prints `lines`, `every` ms apart. */
function laptop(lines: string[], every: number) {
  made += 1;
  const dir = join(base, `laptop-${made}`);
  const env = {
    HOME: dir,
    LOOKOUT_HOME: join(dir, 'lookout'),
    CLAUDE_CONFIG_DIR: join(dir, 'claude'),
    CODEX_HOME: join(dir, 'codex'),
    PATH: `${bin}:${process.env.PATH ?? ''}`,
    LOOKOUT_TEST_FEED: join(dir, 'feed.jsonl'),
    LOOKOUT_TEST_EVERY: String(every),
  };
  mkdirSync(env.LOOKOUT_HOME, { recursive: true });
  writeFileSync(env.LOOKOUT_TEST_FEED, `${lines.join('\n')}\n`);
  writeFileSync(join(env.LOOKOUT_HOME, 'settings.json'), JSON.stringify({ hosts: [{ name: 'devbox', destination: 'devbox' }] }));
  const ledger = (): string[] =>
    (JSON.parse(readFileSync(join(env.LOOKOUT_HOME, 'store.json'), 'utf8')) as { notified: { id: string }[] }).notified.map((entry) => entry.id);
  return { env, ledger };
}

/** A runtime until `ready` holds (asked at each snapshot and each notification); the notifications and problems it had. */
async function runUntil(
  env: Record<string, string>,
  ready: (snapshot: Snapshot | null, plans: readonly NotificationPlan[]) => boolean,
): Promise<{ plans: NotificationPlan[]; problems: string[] }> {
  const recorder = new Recorder();
  const problems: string[] = [];
  const runtime = new Runtime({ env, clock: Date.now, notifier: recorder, onProblem: (text) => problems.push(text), answering: false });
  const seen = new Promise<void>((done) => {
    const check = (): void => {
      if (ready(runtime.snapshot, recorder.plans)) done();
    };
    recorder.onPlan = check;
    runtime.onSnapshot(() => queueMicrotask(check));
  });
  await runtime.start();
  await seen;
  await runtime.dispose();
  return { plans: recorder.plans, problems };
}

describe("issue 25 item 8: other machines' claims on this machine's notifications", () => {
  it("issue 25 item 8: a host with 5,000 claims notifies 200 (the rest counted), evicts none of this machine's ledger, and is not told again after a restart", async () => {
    const rows = Array.from({ length: 5000 }, (_, index) => row(index, T + index));
    const here = laptop([line(rows)], 10);
    const local = `claude:mine|needs-you|${T}`;
    new FactStore(here.env.LOOKOUT_HOME).update(Date.now(), (file) => {
      file.notified.push({ id: local, at: iso(T) });
    });
    const hostRows = (snapshot: Snapshot | null) => (snapshot?.sessions ?? []).filter((item) => item.host === 'devbox').length === 5000;
    const first = await runUntil(here.env, (snapshot, plans) => hostRows(snapshot) && plans.length > 0);
    expect(first.plans).toHaveLength(1);
    expect(first.plans[0]?.claimIds).toHaveLength(200);
    expect(first.problems).toContain('lookout: host devbox shows 5000 claims at once; only its first 200 may notify here (4800 not told)');
    const ledger = here.ledger();
    expect(ledger).toContain(local);
    expect(ledger.filter((id) => id.startsWith('devbox:'))).toHaveLength(200);
    // Restarted: the same snapshot tells nothing (its 200 are in the ledger), and this machine's entry stays.
    const second = await runUntil(here.env, (snapshot) => hostRows(snapshot));
    expect(second.plans).toEqual([]);
    expect(here.ledger()).toContain(local);
  }, 60_000);

  it("issue 25 item 8: the ledger keeps this machine's 5,000 newest and 1,000 a host: 6,000 of a host evict none of this machine's", () => {
    const home = join(base, 'ledger');
    const store = new FactStore(home);
    store.update(Date.now(), (file) => {
      for (let index = 0; index < 10; index += 1) file.notified.push({ id: `claude:mine-${index}|needs-you|${T}`, at: iso(T) });
    });
    store.update(Date.now(), (file) => {
      for (let index = 0; index < 6000; index += 1) file.notified.push({ id: `devbox:claude:s-${index}|needs-you|${T}`, at: iso(T) });
      for (let index = 0; index < 1500; index += 1) file.notified.push({ id: `gpubox:codex:s-${index}|failed|${T}`, at: iso(T) });
    });
    const ids = store.read(Date.now()).file.notified.map((entry) => entry.id);
    expect(ids.filter((id) => id.startsWith('claude:'))).toHaveLength(10);
    // Each host's newest, in order.
    expect(ids.filter((id) => id.startsWith('devbox:'))).toEqual(Array.from({ length: 1000 }, (_, index) => `devbox:claude:s-${5000 + index}|needs-you|${T}`));
    expect(ids.filter((id) => id.startsWith('gpubox:'))).toHaveLength(1000);
  });

  it('issue 25 item 8: a host changing its claim on every one of 300 lines is told in a few notifications, the last claim among them', async () => {
    const lines = Array.from({ length: 300 }, (_, index) => line([row(1, T + index * 1000)]));
    const here = laptop(lines, 10);
    const last = `devbox:claude:session-1|needs-you|${T + 299_000}`;
    const { plans } = await runUntil(here.env, (_snapshot, told) => told.some((plan) => plan.claimIds.includes(last)));
    expect(plans.length).toBeLessThanOrEqual(3);
    expect(here.ledger().length).toBeLessThanOrEqual(3);
  }, 60_000);
});
