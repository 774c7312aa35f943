// The provider registry: a provider is one folder and one line. A fake provider added through the
// registry alone shows in status, watch, the popover (through serve) and open; and no file
// outside a provider's folder and the registry names a provider.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/engine';
import { PROVIDERS } from '../../src/providers';
import { safeProviderWord } from '../../src/providers/hooks/spool-format';
import { sourceFiles } from '../architecture/layers';
import { runCli } from '../main/cli-process';
import { serve } from '../main/serve-process';
import { WatchProcess } from '../main/watch-process';
import { CHROMIUM, launch } from '../popover/browser';
import { FAKE_ID, parrotDescriptor } from './fake/descriptor';
import { FAKE_CLI_DIR, withFake } from './fake/registry-plugin';

const SRC = resolve(__dirname, '../../src');
const CLI = join(FAKE_CLI_DIR, 'cli.cjs');
const NOW = '2026-11-29T12:02:00.000Z';

/** The provider's own folder and the registry may name it; nothing else in src may. */
function mayName(file: string): boolean {
  const path = relative(SRC, file).split(sep);
  return (path[0] === 'providers' && path[1] === 'index.ts') || (path[0] === 'providers' && PROVIDERS.some((provider) => provider.id === path[1]));
}

/** Comments out, so the names a comment gives as an example do not count; ids count everywhere. */
const code = (text: string): string => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

function namings(files: readonly { path: string; text: string }[], providers = PROVIDERS): string[] {
  const found: string[] = [];
  for (const { path, text } of files) {
    for (const provider of providers) {
      const id = new RegExp(`(?<![A-Za-z0-9_-])${provider.id}(?![A-Za-z0-9_])`);
      if (id.test(text)) found.push(`${path}: the id "${provider.id}"`);
      if (text.includes(provider.root.env)) found.push(`${path}: ${provider.root.env}`);
      for (const name of new Set([provider.name, provider.shortName])) {
        if (new RegExp(`['"\`>][^'"\`<]*\\b${name}\\b`).test(code(text))) found.push(`${path}: the name "${name}" in code`);
      }
    }
  }
  return found;
}

describe('the provider registry', () => {
  it('no file outside a provider folder and the registry spells a provider id, its variable or its name', () => {
    const files = sourceFiles(SRC)
      .filter((file) => !mayName(file))
      .map((file) => ({ path: relative(SRC, file), text: readFileSync(file, 'utf8') }));
    expect(files.length).toBeGreaterThan(50);
    expect(namings(files)).toEqual([]);
  });

  it('the naming check can fail: it finds planted ids, variables and names', () => {
    const [first] = PROVIDERS;
    if (first === undefined) throw new Error('an empty registry');
    const planted = [
      { path: 'a.ts', text: `const x = '${first.id}';` },
      { path: 'b.ts', text: `if (provider === "${first.id}") return;` },
      { path: 'c.ts', text: `const root = process.env.${first.root.env};` },
      { path: 'd.tsx', text: `<option>${first.shortName}</option>` },
      { path: 'e.ts', text: `// ${first.name} writes its transcripts as JSONL\nconst ok = 1;` },
    ];
    expect(namings(planted).map((line) => line.split(':')[0])).toEqual(['a.ts', 'b.ts', 'c.ts', 'd.tsx']);
  });

  it('ids are unique plain words, and so are hook entry names', () => {
    const ids = PROVIDERS.map((provider) => provider.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every(safeProviderWord)).toBe(true);
    const entries = PROVIDERS.flatMap((provider) => provider.hooks?.entries.map((entry) => entry.name) ?? []);
    expect(new Set(entries).size).toBe(entries.length);
    expect(entries.every(safeProviderWord)).toBe(true);
  });

  it('the fake build adds one entry to the registry and nothing else', () => {
    const text = readFileSync(join(SRC, 'providers', 'index.ts'), 'utf8');
    const changed = withFake(text);
    expect(changed.split('\n').length).toBe(text.split('\n').length + 1);
    expect(changed).toContain('parrotDescriptor, ');
  });
});

describe('a fake provider through the registry alone', () => {
  let dir: string;
  let env: Record<string, string>;
  const write = (id: string, state: string, at: string, detail?: string): void => {
    mkdirSync(join(dir, 'parrot', 'sessions'), { recursive: true });
    writeFileSync(join(dir, 'parrot', 'sessions', `${id}.json`), JSON.stringify({ id, title: `parrot ${id}`, cwd: dir, state, at, detail }));
  };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'lookout-fake-provider-'));
    env = {
      HOME: dir,
      PARROT_HOME: join(dir, 'parrot'),
      CLAUDE_CONFIG_DIR: join(dir, 'none-claude'),
      CODEX_HOME: join(dir, 'none-codex'),
      LOOKOUT_HOME: join(dir, 'home'),
    };
    write('p1', 'asking', '2026-11-29T12:01:00.000Z', 'Which colour?');
    write('p2', 'done', '2026-11-29T12:00:00.000Z');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('R13 status --json shows its sessions, decided by the one engine', () => {
    const result = runCli(['status', '--json', '--now', NOW], env, undefined, CLI);
    expect(result.stderr).toBe('');
    const snapshot = JSON.parse(result.stdout) as Snapshot;
    const asking = snapshot.sessions.find((row) => row.key === `${FAKE_ID}:p1`);
    expect(asking).toMatchObject({ provider: FAKE_ID, band: 'needs-you', observed: { state: 'awaiting-input', detail: 'asks: Which colour?' } });
    expect(snapshot.attention).toMatchObject({ count: 1, needYou: 1 });
  });

  it('open --print resumes it with its own command', () => {
    // A terminal the probes find: the plan is printed, nothing runs.
    const result = runCli(['open', 'p2', '--print', '--now', NOW], { ...env, TERMINAL: '/bin/true', PATH: process.env.PATH ?? '' }, undefined, CLI);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ kind: 'terminal', steps: [{ argv: ['/bin/true', '-e', ...parrotDescriptor.resume('p2')] }] });
  });

  it('watch sees a new session of it as the file appears', async () => {
    const watch = new WatchProcess(['--all'], env, CLI);
    try {
      await watch.until((snapshot) => snapshot.sessions.some((row) => row.key === `${FAKE_ID}:p1`), 20_000);
      write('p3', 'asking', new Date().toISOString(), 'Left or right?');
      const seen = await watch.until((snapshot) => snapshot.sessions.some((row) => row.key === `${FAKE_ID}:p3`), 20_000);
      expect(seen.sessions.find((row) => row.key === `${FAKE_ID}:p3`)?.observed.detail).toBe('asks: Left or right?');
    } finally {
      await watch.stop();
    }
  });

  it.skipIf(CHROMIUM === null)('the popover (through serve) shows it with its name, and filters by it', async () => {
    const served = await serve(env, ['--now', NOW], CLI);
    const browser = await launch();
    try {
      const page = await browser.newPage();
      await page.goto(served.url.toString());
      const row = page.locator(`[data-session-key="${FAKE_ID}:p1"]`);
      await row.waitFor();
      expect(await row.locator('.provider').textContent()).toBe(parrotDescriptor.shortName);
      await page.selectOption('select[aria-label="Quick filter"]', `provider:${FAKE_ID}`);
      await page.waitForFunction(
        (id) => [...document.querySelectorAll('[data-session-key]')].every((item) => item.getAttribute('data-session-key')?.startsWith(`${id}:`)),
        FAKE_ID,
      );
      await page.getByRole('button', { name: 'Settings' }).click();
      await page.getByText(`${parrotDescriptor.name}: ${join(dir, 'parrot')}`).waitFor();
    } finally {
      await browser.close();
      await served.stop();
    }
  });
});
