// The README's pictures (`npm run pictures`, scripts/pictures.mjs) are shot from the scene in
// scripts/pictures/scene.ts: the scene must still read as the README shows it, so a change in a
// provider's format or the engine cannot quietly turn its rows into something else.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Row, Snapshot } from '../../src/engine';
import { CLI, runCli } from '../main/cli-process';
import { sshUnavailable } from '../hosts/sshd';
import type { Scene } from '../../scripts/pictures/scene';
import { HOST, SESSIONS, buildScene, keyOf } from '../../scripts/pictures/scene';

const ROOT = resolve(__dirname, '../..');
const noSsh = sshUnavailable();
if (noSsh !== null) console.log(`pictures test: the ${HOST} row is not checked: ${noSsh}`);
const noGit = spawnSync('git', ['--version']).status === 0 ? null : 'no git on this machine';
if (noGit !== null) console.log(`pictures test: the ready-for-review row is not checked: ${noGit}`);

let dir: string;
let scene: Scene;
let rows: Row[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lookout-pictures-test-'));
  scene = await buildScene(join(dir, 'scene'), CLI);
  const result = runCli(['status', '--json', '--all'], scene.env);
  expect(result.code, result.stderr).toBe(0);
  rows = (JSON.parse(result.stdout) as Snapshot).sessions;
});

afterAll(async () => {
  await scene?.stop();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

const row = (key: string): Row => {
  const found = rows.find((item) => item.key === key);
  if (found === undefined) throw new Error(`no row ${key}; rows: ${rows.map((item) => `${item.key} ${item.band}`).join(', ')}`);
  return found;
};

describe("the scene of the README's pictures", () => {
  it('a Claude session waits on a permission prompt, its command shown', () => {
    const approval = row(keyOf(SESSIONS.approval));
    expect(approval).toMatchObject({ provider: 'claude', title: SESSIONS.approval.title, band: 'needs-you', branch: 'fix/login-flake' });
    expect(approval.observed).toMatchObject({ state: 'awaiting-approval', confidence: 'direct' });
    expect(approval.claim?.detail).toBe(`Bash: ${SESSIONS.approval.command}`);
  });

  it('a Codex run failed on an API error', () => {
    const failed = row(keyOf(SESSIONS.failed));
    expect(failed).toMatchObject({ provider: 'codex', title: SESSIONS.failed.title, band: 'failed' });
    expect(failed.observed).toMatchObject({ state: 'error', reason: 'api-error' });
  });

  it.skipIf(noGit !== null)('a long Claude turn finished with changed files to review', () => {
    const review = row(keyOf(SESSIONS.review));
    expect(review).toMatchObject({ provider: 'claude', title: SESSIONS.review.title, band: 'ready-for-review' });
    expect(review.claim?.detail).toMatch(/^finished in 8m 30s, 3 files changed$/);
  });

  it('a Copilot session is working', () => {
    const working = row(keyOf(SESSIONS.working));
    expect(working).toMatchObject({ provider: 'copilot', title: SESSIONS.working.title, band: 'working' });
    expect(working.observed.state).toBe('running');
  });

  it("earlier sessions sit idle, below the pictures' rows", () => {
    expect([row(keyOf(SESSIONS.docs)).band, row(keyOf(SESSIONS.lint)).band]).toEqual(['idle', 'idle']);
  });

  it.skipIf(noSsh !== null)(`a Claude session on ${HOST}, reached over ssh, asks a question`, () => {
    const remote = row(keyOf(SESSIONS.remote, HOST));
    expect(remote).toMatchObject({ host: HOST, provider: 'claude', title: SESSIONS.remote.title, band: 'needs-you' });
    expect(remote.observed.state).toBe('awaiting-input');
    expect(scene.notes).toEqual([]);
  });

  it('the keys the script waits for are exactly the rows above the collapsed groups, and nothing in them is markup', () => {
    const shown = rows.filter((item) => !['idle', 'done', 'historical'].includes(item.band) && item.muted === null);
    expect(shown.map((item) => item.key).sort()).toEqual([...scene.keys].sort());
    for (const item of rows) expect(`${item.title} ${item.claim?.detail ?? ''} ${item.observed.detail ?? ''}`).not.toMatch(/[<>]/);
  });

  it('the README shows both pictures and says how to make them again', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    for (const picture of ['docs/popover-light.png', 'docs/popover-dark.png']) {
      expect(readme).toContain(`src="${picture}"`);
      expect(existsSync(join(ROOT, picture)), picture).toBe(true);
    }
    expect(readme).toContain('npm run pictures');
    expect(scripts.pictures).toBe('node scripts/build.mjs && node scripts/pictures.mjs');
  });
});
