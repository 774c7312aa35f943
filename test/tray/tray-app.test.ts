// The Electron shell with fake Electron parts: the badge and tooltip follow the runtime, IPC
// refuses strangers and malformed messages, the menu acts, notifications open sessions (R44).
import { EventEmitter } from 'node:events';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { CommandResult } from '../../src/engine/contract';
import { CHANNEL } from '../../src/tray/channels';
import type { ElectronParts, MenubarFactory, PopoverWindow } from '../../src/tray/tray-app';
import { startTray } from '../../src/tray/tray-app';
import { FIXTURES, fixtures } from '../providers/fixture-roots';

const base = mkdtempSync(join(tmpdir(), 'lookout-tray-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const DIST = resolve(__dirname, '../../dist');
const key = (name: string) => fixtures('claude').find((item) => item.name === name)?.meta.sessionKey ?? '';
let n = 0;

function fakes(lock = true, held: readonly string[] = [], platform: NodeJS.Platform = 'darwin', bus = '(true,)') {
  const shortcuts = new Map<string, () => void>();
  const handlers = new Map<string, (event: unknown, raw?: unknown) => unknown>();
  const listeners = new Map<string, (event: unknown) => void>();
  const tray = Object.assign(new EventEmitter(), { setImage: vi.fn(), setToolTip: vi.fn(), setTitle: vi.fn(), popUpContextMenu: vi.fn() });
  const sent: [string, unknown][] = [];
  const webContents = Object.assign(new EventEmitter(), {
    send: (channel: string, value: unknown) => sent.push([channel, value]),
    setWindowOpenHandler: vi.fn(),
  });
  const window = Object.assign(new EventEmitter(), { webContents, setAlwaysOnTop: vi.fn() });
  const notifications: (EventEmitter & { title: string; body: string; show: () => void })[] = [];
  const app = Object.assign(new EventEmitter(), {
    requestSingleInstanceLock: () => lock,
    quit: vi.fn(),
    whenReady: () => Promise.resolve(),
    getLoginItemSettings: () => ({ openAtLogin: false }),
    setLoginItemSettings: vi.fn(),
  });
  const menus: { label?: string; click?: () => void }[][] = [];
  const parts = {
    app,
    ipcMain: {
      handle: (channel: string, handler: (event: unknown, raw?: unknown) => unknown) => handlers.set(channel, handler),
      on: (channel: string, listener: (event: unknown) => void) => listeners.set(channel, listener),
      removeHandler: (channel: string) => handlers.delete(channel),
      removeAllListeners: (channel: string) => listeners.delete(channel),
    },
    createTray: () => tray,
    image: (x1: Buffer, x2: Buffer, template: boolean) => ({ x1, x2, template }),
    buildMenu: (template: { label?: string; click?: () => void }[]) => {
      menus.push(template);
      return template;
    },
    notification: (options: { title: string; body: string }) => {
      const item = Object.assign(new EventEmitter(), { ...options, show: () => item.emit('show') });
      notifications.push(item);
      return item;
    },
    notificationsSupported: () => true,
    platform,
    askBus: () => bus,
    globalShortcut: {
      // A key another application holds cannot be registered.
      register: (accelerator: string, callback: () => void) => !held.includes(accelerator) && shortcuts.set(accelerator, callback) !== undefined,
      unregister: (accelerator: string) => shortcuts.delete(accelerator),
    },
  } as unknown as ElectronParts;
  const popover: PopoverWindow & { shown: number } = {
    window: window as unknown as PopoverWindow['window'],
    shown: 0,
    showWindow() {
      popover.shown += 1;
    },
    hideWindow: vi.fn(),
    on: (_event, listener) => listener(),
  };
  const menubar: MenubarFactory = vi.fn(() => popover);
  const page = `file://${DIST}/popover/index.html`;
  const fromPopover = { sender: webContents, senderFrame: { url: page, parent: null } };
  return { parts, menubar, tray, handlers, listeners, sent, notifications, popover, app, menus, fromPopover, webContents, shortcuts };
}

function home(names: string[]): NodeJS.ProcessEnv {
  n += 1;
  const dir = join(base, `run-${n}`);
  for (const name of names) cpSync(join(FIXTURES, 'claude', name), join(dir, 'claude'), { recursive: true });
  return { CLAUDE_CONFIG_DIR: join(dir, 'claude'), CODEX_HOME: join(dir, 'codex'), LOOKOUT_HOME: join(dir, 'home'), HOME: dir, PATH: process.env.PATH };
}

describe('the tray app (fake Electron)', () => {
  it('issue 47 item 4: a home others can write is refused: the tray app does not start, saying why in one line', async () => {
    const f = fakes();
    const env = home([]);
    const folder = env.LOOKOUT_HOME ?? '';
    mkdirSync(folder, { recursive: true });
    chmodSync(folder, 0o777);
    await expect(startTray(f.parts, f.menubar, DIST, env)).rejects.toThrow(`refusing LOOKOUT_HOME folder ${folder}: writable by others (mode 0777)`);
  });

  it('a second instance quits at once', async () => {
    const f = fakes(false);
    expect(await startTray(f.parts, f.menubar, DIST, home([]))).toBeNull();
    expect(f.app.quit).toHaveBeenCalled();
  });

  it('R32 the badge, tooltip and window follow the runtime; the window is sandboxed', async () => {
    const f = fakes();
    const tray = await startTray(f.parts, f.menubar, DIST, home(['question-pending', 'working']));
    const options = vi.mocked(f.menubar).mock.calls[0]?.[0];
    expect(options?.browserWindow.webPreferences).toMatchObject({ contextIsolation: true, nodeIntegration: false, sandbox: true });
    expect(options?.browserWindow.webPreferences?.preload).toBe(join(DIST, 'preload.cjs'));
    const image = f.tray.setImage.mock.calls.at(-1)?.[0] as { template: boolean };
    // The fixtures are 2026-11-29; today they are historical, so nothing is counted: a template icon.
    expect(image.template).toBe(true);
    expect(f.tray.setToolTip).toHaveBeenLastCalledWith('0 need you · 0 to review · 0 working');
    await tray?.dispose();
  });

  it('IPC refuses strangers and malformed messages, and runs valid commands', async () => {
    const f = fakes();
    const env = home(['question-pending']);
    const tray = await startTray(f.parts, f.menubar, DIST, env);
    const command = f.handlers.get(CHANNEL.command);
    if (command === undefined) throw new Error('the command channel is handled');
    const stranger = { sender: {}, senderFrame: { url: 'https://evil.example/', parent: null } };
    const subframe = { sender: f.webContents, senderFrame: { url: f.fromPopover.senderFrame.url, parent: {} } };
    const target = key('question-pending');
    expect(await command(stranger, { type: 'review', key: target, state: 'flagged' })).toEqual({ ok: false, error: 'refused: not from the Lookout popover' });
    expect(await command(subframe, { type: 'review', key: target, state: 'flagged' })).toMatchObject({ ok: false });
    expect(((await command(f.fromPopover, { type: 'review', key: target, state: 'bogus' })) as CommandResult).ok).toBe(false);
    expect(((await command(f.fromPopover, { type: 'rm -rf', key: target })) as CommandResult).ok).toBe(false);
    expect(await command(f.fromPopover, { type: 'review', key: target, state: 'flagged' })).toEqual({ ok: true });
    const store = JSON.parse(readFileSync(join(env.LOOKOUT_HOME ?? '', 'store.json'), 'utf8'));
    expect(store.reviews[target].state).toBe('flagged');
    expect(f.handlers.get(CHANNEL.explain)?.(stranger, { key: target })).toBeNull();
    expect((f.handlers.get(CHANNEL.explain)?.(f.fromPopover, { key: target }) as { decidedBy: string } | undefined)?.decidedBy).toMatch(/^R\d/);
    f.listeners.get(CHANNEL.ready)?.(f.fromPopover);
    expect(f.sent.at(-1)?.[0]).toBe(CHANNEL.state);
    await tray?.dispose();
  });

  it('the context menu: open, mute all for 1 h, settings, start at login, quit', async () => {
    const f = fakes();
    const tray = await startTray(f.parts, f.menubar, DIST, home(['question-pending', 'working']));
    f.tray.emit('right-click');
    const menu = f.menus.at(-1) ?? [];
    expect(menu.map((item) => item.label)).toEqual([
      'Open Lookout',
      'Mute all for 1 h',
      'Pause notifications for 1 h',
      'Pause notifications until tomorrow',
      'Settings…',
      'Start at login',
      'Quit Lookout',
    ]);
    menu[0]?.click?.();
    expect(f.popover.shown).toBe(1);
    tray?.act('mute-all-1h');
    expect(tray?.runtime.evaluation?.snapshot.sessions.every((row) => row.muted !== null || row.historical)).toBe(true);
    menu[4]?.click?.();
    expect(tray?.host.state()?.request).toEqual({ view: 'settings', serial: 1 });
    menu[5]?.click?.();
    expect(f.app.setLoginItemSettings).toHaveBeenCalledWith({ openAtLogin: true });
    menu[6]?.click?.();
    expect(f.app.quit).toHaveBeenCalled();
    await tray?.dispose();
  });

  it('the global key (Ctrl+Shift+J, ⌘⇧J on macOS) shows the popover asking for the next session wanting attention, each press anew (issue 15)', async () => {
    const f = fakes();
    const tray = await startTray(f.parts, f.menubar, DIST, home(['question-pending']));
    expect([...f.shortcuts.keys()]).toEqual(['CommandOrControl+Shift+J']);
    f.shortcuts.get('CommandOrControl+Shift+J')?.();
    expect(f.popover.shown).toBe(1);
    expect(tray?.host.state()?.request).toEqual({ view: 'list', serial: 1, jump: true });
    f.shortcuts.get('CommandOrControl+Shift+J')?.();
    expect(tray?.host.state()?.request).toEqual({ view: 'list', serial: 2, jump: true });
    await tray?.dispose();
    expect(f.shortcuts.size).toBe(0);
  });

  it('a global key another application holds is reported, not silently missing; settings choose another or none', async () => {
    const f = fakes(true, ['CommandOrControl+Shift+J']);
    const tray = await startTray(f.parts, f.menubar, DIST, home([]));
    const problems = tray?.host.state()?.problems.map((problem) => problem.text) ?? [];
    expect(problems.filter((text) => text.includes('global key'))).toEqual([
      `lookout: the global key ${process.platform === 'darwin' ? '⌘⇧J' : 'Ctrl+Shift+J'} is held by another application (or this desktop allows none); set "shortcut" in settings.json to another key, or to null to turn it off`,
    ]);
    expect(f.shortcuts.size).toBe(0);
    await tray?.dispose();
    for (const [shortcut, registered] of [
      [null, []],
      ['Alt+Shift+L', ['Alt+Shift+L']],
    ] as const) {
      const g = fakes();
      const env = home([]);
      mkdirSync(env.LOOKOUT_HOME ?? '', { recursive: true });
      writeFileSync(join(env.LOOKOUT_HOME ?? '', 'settings.json'), JSON.stringify({ shortcut }));
      const other = await startTray(g.parts, g.menubar, DIST, env);
      expect([...g.shortcuts.keys()]).toEqual(registered);
      await other?.dispose();
    }
  });

  it('start at login on Linux: an XDG autostart entry, written when turned on and removed when off; the check mark reads the file (issue 16)', async () => {
    const f = fakes(true, [], 'linux');
    const env = home([]);
    const entry = join(env.HOME ?? '', '.config', 'autostart', 'lookout.desktop');
    const tray = await startTray(f.parts, f.menubar, DIST, env);
    const checked = () => {
      f.tray.emit('right-click');
      return f.menus.at(-1)?.find((item) => item.label === 'Start at login') as { checked?: boolean } | undefined;
    };
    expect(checked()?.checked).toBe(false);
    tray?.act('start-at-login');
    expect(readFileSync(entry, 'utf8')).toMatch(/^\[Desktop Entry\]\nType=Application\nName=Lookout\n/);
    expect(readFileSync(entry, 'utf8')).toContain(`Exec=${process.execPath}`);
    expect(checked()?.checked).toBe(true);
    expect(f.app.setLoginItemSettings).not.toHaveBeenCalled();
    // Switched off by the desktop's own settings: the mark says so.
    writeFileSync(entry, readFileSync(entry, 'utf8').replace('X-GNOME-Autostart-enabled=true', 'X-GNOME-Autostart-enabled=false'));
    expect(checked()?.checked).toBe(false);
    tray?.act('start-at-login');
    expect(checked()?.checked).toBe(true);
    tray?.act('start-at-login');
    expect(existsSync(entry)).toBe(false);
    expect(checked()?.checked).toBe(false);
    await tray?.dispose();
  });

  it("issue 25 item 12: an AppImage path with % and no folder of Lookout's without one: said in the popover, no entry, the mark stays off", async () => {
    const f = fakes(true, [], 'linux');
    const env = home([]);
    const appImage = join(env.HOME ?? '', '100% sure', 'Lookout.AppImage');
    mkdirSync(join(appImage, '..'), { recursive: true });
    writeFileSync(appImage, '#!/bin/sh\n', { mode: 0o700 });
    const tray = await startTray(f.parts, f.menubar, DIST, { ...env, APPIMAGE: appImage, LOOKOUT_HOME: join(env.HOME ?? '', '50% home') });
    tray?.act('start-at-login');
    expect(
      tray?.host
        .state()
        ?.problems.map((problem) => problem.text)
        .filter((text) => text.includes('start at login')),
    ).toEqual([expect.stringMatching(/^lookout: cannot start at login: .*set LOOKOUT_HOME to a folder without one$/)]);
    expect(existsSync(join(env.HOME ?? '', '.config', 'autostart', 'lookout.desktop'))).toBe(false);
    f.tray.emit('right-click');
    expect(f.menus.at(-1)?.find((item) => item.label === 'Start at login')).toMatchObject({ checked: false });
    await tray?.dispose();
  });

  it('no tray to be seen (stock GNOME, no watcher on the bus): said once, the window shown and kept on top (issue 16)', async () => {
    const f = fakes(true, [], 'linux', '(false,)\n');
    const tray = await startTray(f.parts, f.menubar, DIST, { ...home([]), XDG_CURRENT_DESKTOP: 'GNOME' });
    expect(tray?.host.state()?.problems.filter((problem) => problem.text.includes('no tray icons'))).toHaveLength(1);
    expect(f.popover.shown).toBe(1);
    expect((f.popover.window as unknown as { setAlwaysOnTop: ReturnType<typeof vi.fn> }).setAlwaysOnTop).toHaveBeenCalledWith(true);
    await tray?.dispose();
    // With a watcher there, nothing is said and nothing opens by itself.
    const g = fakes(true, [], 'linux', '(true,)\n');
    const other = await startTray(g.parts, g.menubar, DIST, { ...home([]), XDG_CURRENT_DESKTOP: 'GNOME' });
    expect(other?.host.state()?.problems).toEqual([]);
    expect(g.popover.shown).toBe(0);
    await other?.dispose();
  });

  it('pause notifications from the menu: for an hour, or until tomorrow; the menu then offers to resume (issue 16)', async () => {
    const f = fakes();
    const env = home([]);
    const tray = await startTray(f.parts, f.menubar, DIST, env);
    const paused = () => JSON.parse(readFileSync(join(env.LOOKOUT_HOME ?? '', 'store.json'), 'utf8')).pausedUntil as string | null;
    const before = Date.now();
    tray?.act('pause-1h');
    expect(Date.parse(paused() ?? '') - before).toBeGreaterThanOrEqual(3_600_000);
    expect(Date.parse(paused() ?? '') - Date.now()).toBeLessThanOrEqual(3_600_000);
    f.tray.emit('right-click');
    expect(f.menus.at(-1)?.map((item) => item.label)).toContain(
      `Resume notifications (paused until ${new Date(Date.parse(paused() ?? '')).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })})`,
    );
    tray?.act('resume');
    expect(paused()).toBeNull();
    tray?.act('pause-tomorrow');
    // Until the next 08:00 on this machine's clock: within a day, on the hour.
    const until = new Date(Date.parse(paused() ?? ''));
    expect(until.getTime() - Date.now()).toBeGreaterThan(0);
    expect(until.getTime() - Date.now()).toBeLessThanOrEqual(86_400_000);
    expect([until.getHours(), until.getMinutes()]).toEqual([8, 0]);
    await tray?.dispose();
  });

  it('R44 a notification click opens the session and records a visit', async () => {
    const f = fakes();
    const env = home(['question-pending']);
    // Bring the fixture's question to now, so it notifies.
    const fixture = fixtures('claude').find((item) => item.name === 'question-pending');
    const file = join(env.CLAUDE_CONFIG_DIR ?? '', 'projects', '-home-me-app', `${fixture?.meta.sessionKey.slice(7)}.jsonl`);
    const now = new Date().toISOString();
    const text = readFileSync(file, 'utf8').replace(/"timestamp":"2026-11-29T12:00:(00|10)\.000Z"/g, `"timestamp":"${now}"`);
    (await import('node:fs')).writeFileSync(file, text);
    const tray = await startTray(f.parts, f.menubar, DIST, env);
    // The first evaluation notifies; waited for as a condition, however long a loaded machine takes.
    for (let waited = 0; waited < 20_000 && f.notifications.length === 0; waited += 50) await new Promise((done) => setTimeout(done, 50));
    expect(f.notifications).toHaveLength(1);
    expect(f.notifications[0]?.title).toBe('Claude · app (main) needs you');
    expect(f.notifications[0]?.body).toBe('asks: Which database?');
    f.notifications[0]?.emit('click');
    // Opening records the visit, then fails (and says so): wait for that, however long it takes here.
    for (let waited = 0; waited < 20_000 && (tray?.host.state()?.problems.length ?? 0) === 0; waited += 50) await new Promise((done) => setTimeout(done, 50));
    const store = JSON.parse(readFileSync(join(env.LOOKOUT_HOME ?? '', 'store.json'), 'utf8'));
    expect(store.visits[fixture?.meta.sessionKey ?? '']).toBeDefined();
    // The fixture's folder does not exist here: opening failed, and says so once, in the app.
    expect(tray?.host.state()?.problems.map((problem) => problem.text)).toEqual([expect.stringContaining('the session has no folder that exists here')]);
    await tray?.dispose();
  });

  it("a digest notification's click shows the popover on the first of its sessions, in its group (issue 15)", async () => {
    const f = fakes();
    const env = home(['question-pending']);
    const fixture = fixtures('claude').find((item) => item.name === 'question-pending');
    const id = fixture?.meta.sessionKey.slice(7) ?? '';
    const project = join(env.CLAUDE_CONFIG_DIR ?? '', 'projects', '-home-me-app');
    const now = new Date().toISOString();
    const text = readFileSync(join(project, `${id}.jsonl`), 'utf8').replace(/"timestamp":"2026-11-29T12:00:(00|10)\.000Z"/g, `"timestamp":"${now}"`);
    // Two sessions asking at once: one notification for both.
    const other = id.replace(/29$/, 'a9');
    writeFileSync(join(project, `${id}.jsonl`), text);
    writeFileSync(join(project, `${other}.jsonl`), text.replaceAll(id, other));
    const tray = await startTray(f.parts, f.menubar, DIST, env);
    for (let waited = 0; waited < 20_000 && f.notifications.length === 0; waited += 50) await new Promise((done) => setTimeout(done, 50));
    expect(f.notifications.map((item) => item.title)).toEqual(['2 sessions need you']);
    f.notifications[0]?.emit('click');
    expect(f.popover.shown).toBe(1);
    const request = tray?.host.state()?.request;
    expect(request?.view).toBe('list');
    expect([`claude:${id}`, `claude:${other}`]).toContain(request?.select);
    // Nothing was opened and no visit recorded: the user chooses in the popover.
    expect(
      existsSync(join(env.LOOKOUT_HOME ?? '', 'store.json')) ? JSON.parse(readFileSync(join(env.LOOKOUT_HOME ?? '', 'store.json'), 'utf8')).visits : {},
    ).toEqual({});
    await tray?.dispose();
  });
});
