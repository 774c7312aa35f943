// `lookout hooks install|uninstall|status`: Lookout's hooks in the agents' own files, only when
// asked, merged beside the user's hooks, backed up first, and taken out exactly (issue 6).
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ProviderRoots } from '../../providers/roots';
import { shellQuote } from '../open/plan';
import { spoolFolder } from '../store/home';
import type { HookSpec } from './json-hooks';
import { addHooks, detectIndent, hasOurHooks, parseHooksFile, removeHooks, render } from './json-hooks';
import { SHIM_NAME, shimText } from './shim';
import { addNotify, hasNotify, notifyLine, removeNotify } from './toml-notify';

export type HookProvider = 'claude' | 'codex';

const TOOL = '*';
export const CLAUDE_EVENTS: HookSpec[] = [
  { event: 'PreToolUse', matcher: TOOL },
  { event: 'PermissionRequest', matcher: TOOL },
  { event: 'PostToolUse', matcher: TOOL },
  { event: 'PostToolUseFailure', matcher: TOOL },
  { event: 'Notification', matcher: '' },
  { event: 'UserPromptSubmit', matcher: null },
  { event: 'Stop', matcher: null },
  { event: 'StopFailure', matcher: null },
  { event: 'SubagentStart', matcher: null },
  { event: 'SubagentStop', matcher: null },
  { event: 'SessionStart', matcher: null },
  { event: 'SessionEnd', matcher: null },
];

/** Codex's events with published schemas (SessionEnd and Interrupt have none yet). */
export const CODEX_EVENTS: HookSpec[] = [
  { event: 'SessionStart', matcher: null },
  { event: 'UserPromptSubmit', matcher: null },
  { event: 'PreToolUse', matcher: TOOL },
  { event: 'PermissionRequest', matcher: TOOL },
  { event: 'PostToolUse', matcher: TOOL },
  { event: 'PreCompact', matcher: null },
  { event: 'PostCompact', matcher: null },
  { event: 'SubagentStart', matcher: null },
  { event: 'SubagentStop', matcher: null },
  { event: 'Stop', matcher: null },
  { event: 'StopFailure', matcher: null },
];

export interface HookContext {
  home: string;
  roots: ProviderRoots;
  platform: NodeJS.Platform;
  /** The built command line, for platforms without sh (Windows). */
  cli: string;
  now: number;
}

interface FileRecord {
  /** The file's bytes before Lookout touched it (base64), or null when it did not exist. */
  before: string | null;
  /** The hash of what Lookout wrote: if the file is still exactly that, uninstall restores `before`. */
  after: string;
}

interface InstallRecord {
  files: Record<string, FileRecord>;
  notifyLine: string | null;
}

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');
const recordPath = (home: string): string => join(home, 'hooks', 'installed.json');

function readRecord(home: string): InstallRecord {
  try {
    const parsed = JSON.parse(readFileSync(recordPath(home), 'utf8')) as InstallRecord;
    return { files: parsed.files ?? {}, notifyLine: parsed.notifyLine ?? null };
  } catch {
    return { files: {}, notifyLine: null };
  }
}

/** Writes through a symlink (dotfiles often link settings.json), atomically at the real file. */
function writeAtomic(path: string, text: string): void {
  let target = path;
  try {
    target = realpathSync(path);
  } catch {
    mkdirSync(dirname(path), { recursive: true });
  }
  const temp = `${target}.lookout-${process.pid}.tmp`;
  writeFileSync(temp, text);
  renameSync(temp, target);
}

/** Removes a file Lookout created; a symlink's target is emptied rather than the link broken. */
function removeCreated(path: string): void {
  if (lstatSync(path).isSymbolicLink()) writeAtomic(path, '');
  else rmSync(path);
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

export function shimPath(home: string): string {
  return join(home, 'bin', SHIM_NAME);
}

/** The command the agent runs: the sh shim where there is sh, else Node with the CLI. */
/** Node for the Windows hook: never the Electron binary the tray app runs in. */
function nodeBinary(): string {
  return process.versions.electron === undefined ? process.execPath : 'node';
}

export function hookCommand(context: HookContext, which: 'claude' | 'codex' | 'codex-notify'): string {
  if (context.platform === 'win32') return `"${nodeBinary()}" "${context.cli}" hook ${which}`;
  return `${shellQuote(shimPath(context.home))} ${which}`;
}

function notifyArgv(context: HookContext): string[] {
  return context.platform === 'win32' ? [nodeBinary(), context.cli, 'hook', 'codex-notify'] : [shimPath(context.home), 'codex-notify'];
}

export function paths(roots: ProviderRoots): { claudeSettings: string; codexHooks: string; codexConfig: string } {
  return { claudeSettings: join(roots.claude, 'settings.json'), codexHooks: join(roots.codex, 'hooks.json'), codexConfig: join(roots.codex, 'config.toml') };
}

export interface Outcome {
  lines: string[];
}

/** Changes one file: backs it up, records what it was and what Lookout wrote. */
function change(context: HookContext, record: InstallRecord, path: string, next: string, before: string | null): void {
  if (before !== null) {
    const backups = join(context.home, 'hooks', 'backups');
    mkdirSync(backups, { recursive: true });
    writeFileSync(join(backups, `${path.replace(/[\\/:]/g, '_')}.${new Date(context.now).toISOString().replace(/[:.]/g, '-')}`), before);
  }
  const first = record.files[path]?.before;
  record.files[path] = { before: first !== undefined ? first : before === null ? null : Buffer.from(before).toString('base64'), after: sha(next) };
  writeAtomic(path, next);
}

function installJson(context: HookContext, record: InstallRecord, path: string, specs: readonly HookSpec[], command: string, extra: Record<string, unknown>): string {
  const before = readText(path);
  const settings = parseHooksFile(before, path);
  if (hasOurHooks(settings, command).length === specs.length) return `${path}: already installed`;
  const next = render(addHooks(settings, specs, command, extra), before === null ? 2 : detectIndent(before));
  change(context, record, path, next, before);
  return `${path}: Lookout's hook added for ${specs.length} events${before === null ? ' (new file)' : ' (your hooks kept; a backup is in LOOKOUT_HOME/hooks/backups)'}`;
}

function writeShim(context: HookContext): void {
  if (context.platform === 'win32') return;
  const path = shimPath(context.home);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, shimText(spoolFolder(context.home)));
  chmodSync(path, 0o755);
}

export function install(context: HookContext, providers: readonly HookProvider[]): Outcome {
  const record = readRecord(context.home);
  const files = paths(context.roots);
  // Parse everything first: a malformed file refuses the whole install, and nothing changes.
  if (providers.includes('claude')) parseHooksFile(readText(files.claudeSettings), files.claudeSettings);
  if (providers.includes('codex')) parseHooksFile(readText(files.codexHooks), files.codexHooks);
  writeShim(context);
  const lines: string[] = [];
  if (providers.includes('claude')) {
    lines.push(installJson(context, record, files.claudeSettings, CLAUDE_EVENTS, hookCommand(context, 'claude'), { timeout: 10, async: true }));
  }
  if (providers.includes('codex')) {
    lines.push(installJson(context, record, files.codexHooks, CODEX_EVENTS, hookCommand(context, 'codex'), { timeout: 10 }));
    const config = readText(files.codexConfig);
    const line = notifyLine(notifyArgv(context));
    if (config !== null && config.split('\n').includes(line)) lines.push(`${files.codexConfig}: notify already set to Lookout`);
    else if (config !== null && hasNotify(config)) lines.push(`${files.codexConfig}: you have a notify program already; Lookout left it alone`);
    else {
      change(context, record, files.codexConfig, addNotify(config ?? '', line), config);
      record.notifyLine = line;
      lines.push(`${files.codexConfig}: notify set to Lookout's hook (turn ends)`);
    }
    lines.push('Codex runs new hooks only once you trust them: open Codex and review them with /hooks.');
  }
  writeAtomic(recordPath(context.home), `${JSON.stringify(record, null, 2)}\n`);
  return { lines };
}

function restore(record: InstallRecord, path: string, fallback: (text: string) => string): string {
  const current = readText(path);
  const entry = record.files[path];
  if (current === null) return `${path}: not there; nothing to remove`;
  if (entry !== undefined && sha(current) === entry.after) {
    // Untouched since Lookout wrote it: put back the user's exact bytes.
    if (entry.before === null) removeCreated(path);
    else writeAtomic(path, Buffer.from(entry.before, 'base64').toString('utf8'));
    delete record.files[path];
    return `${path}: restored exactly as it was`;
  }
  const next = fallback(current);
  if (next !== current) writeAtomic(path, next);
  delete record.files[path];
  return next === current ? `${path}: no Lookout hook found` : `${path}: Lookout's hook removed (your later edits kept)`;
}

export function uninstall(context: HookContext, providers: readonly HookProvider[]): Outcome {
  const record = readRecord(context.home);
  const files = paths(context.roots);
  if (providers.includes('claude')) parseHooksFile(readText(files.claudeSettings), files.claudeSettings);
  if (providers.includes('codex')) parseHooksFile(readText(files.codexHooks), files.codexHooks);
  const lines: string[] = [];
  const strip = (path: string, command: string) => (text: string) => {
    const settings = parseHooksFile(text, path);
    return hasOurHooks(settings, command).length === 0 ? text : render(removeHooks(settings, command), detectIndent(text));
  };
  if (providers.includes('claude')) lines.push(restore(record, files.claudeSettings, strip(files.claudeSettings, hookCommand(context, 'claude'))));
  if (providers.includes('codex')) {
    lines.push(restore(record, files.codexHooks, strip(files.codexHooks, hookCommand(context, 'codex'))));
    const line = record.notifyLine ?? notifyLine(notifyArgv(context));
    lines.push(restore(record, files.codexConfig, (text) => removeNotify(text, line)));
    record.notifyLine = null;
  }
  const stillUsed = Object.keys(record.files).length > 0;
  if (!stillUsed && existsSync(shimPath(context.home))) rmSync(shimPath(context.home));
  writeAtomic(recordPath(context.home), `${JSON.stringify(record, null, 2)}\n`);
  return { lines };
}

const SEES: Record<HookProvider, { without: string; with: string }> = {
  claude: {
    without: 'turns, tool calls, questions and plans from transcripts; permission prompts only while the live registry reports them',
    with: 'permission prompts the moment they open, turn ends and failures, subagents starting and stopping, sessions ending',
  },
  codex: {
    without: 'turns and tool calls from rollouts; an approval prompt is never written there, so a pending call can only read "may be waiting"',
    with: 'approval prompts as they open (PermissionRequest), turn ends and failures, subagents',
  },
};

export function status(context: HookContext, providers: readonly HookProvider[]): Outcome {
  const files = paths(context.roots);
  const lines: string[] = [];
  for (const provider of providers) {
    const path = provider === 'claude' ? files.claudeSettings : files.codexHooks;
    let installed: string[] = [];
    let note = '';
    try {
      installed = hasOurHooks(parseHooksFile(readText(path), path), hookCommand(context, provider));
    } catch (error) {
      note = ` (${error instanceof Error ? error.message : String(error)})`;
    }
    const total = provider === 'claude' ? CLAUDE_EVENTS.length : CODEX_EVENTS.length;
    lines.push(`${provider}: ${installed.length === 0 ? 'not installed' : installed.length === total ? 'installed' : `partly installed (${installed.join(', ')})`} in ${path}${note}`);
    if (provider === 'codex') {
      const config = readText(files.codexConfig) ?? '';
      lines.push(`  notify: ${config.split('\n').includes(notifyLine(notifyArgv(context))) ? "Lookout's" : hasNotify(config) ? 'your own (left alone)' : 'not set'}`);
    }
    lines.push(`  without hooks Lookout sees: ${SEES[provider].without}`);
    lines.push(`  with hooks it also sees: ${SEES[provider].with}`);
  }
  return { lines };
}
