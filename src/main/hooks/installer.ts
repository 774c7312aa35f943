// `lookout hooks install|uninstall|status`: Lookout's hooks in the agents' own files, only when
// asked, merged beside the user's hooks, backed up first, and taken out exactly (issue 6).
import { chmodSync, existsSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { privateFolder, writePrivate } from '../../providers/system/private-files';
import { join } from 'node:path';
import type { HookEdit, HookPlaces, HookSpec, ProviderDescriptor, ProviderRoots } from '../../providers';
import { PROVIDERS, hookProviders } from '../../providers';
import { runFolder } from '../answer/paths';
import { shellQuote } from '../../providers/system/argv-quote';
import { spoolFolder } from '../store/home';
import { HooksFileError, addHooks, hasOurHooks, parseHooksFile, removeHooks } from './json-hooks';
import { errorCode } from '../../providers/problems';
import type { InstallRecord } from './install-record';
import { readRecord, readText, removeCreated, saveRecord, sha, writeAtomic } from './install-record';
import { installOwnFile, ownFileStatus, uninstallOwnFile } from './own-file';
import type { ShimEntry } from './shim';
import { SHIM_NAME, shimText } from './shim';
import { addNotify, hasNotify, notifyIs, notifyLine, removeNotify } from './toml-notify';

export interface HookContext {
  home: string;
  roots: ProviderRoots;
  platform: NodeJS.Platform;
  /** The built command line, for platforms without sh (Windows). */
  cli: string;
  now: number;
  /** The user's environment: where an agent's config folder is (HOME, XDG_CONFIG_HOME). */
  env: Readonly<Record<string, string | undefined>>;
  /** Opt-in answering asked for (`--answer <agent>`): those agents' answering hooks are installed too. */
  answer?: readonly string[];
}

function shimPath(home: string): string {
  return join(home, 'bin', SHIM_NAME);
}

/** Node for the Windows hook: never the Electron binary the tray app runs in. */
function nodeBinary(): string {
  return process.versions.electron === undefined ? process.execPath : 'node';
}

/** The command line the agent runs for one hook entry: the sh shim where there is sh, else Node with the CLI. */
export function hookCommand(context: HookContext, entry: string): string {
  if (context.platform === 'win32') return `"${nodeBinary()}" "${context.cli}" hook ${entry}`;
  return `${shellQuote(shimPath(context.home))} ${entry}`;
}

/** The same as an argv, for a notify program (TOML array). */
function hookArgv(context: HookContext, entry: string): string[] {
  return context.platform === 'win32' ? [nodeBinary(), context.cli, 'hook', entry] : [shimPath(context.home), entry];
}

export interface Outcome {
  lines: string[];
}

/** Changes one file: backs it up, records what it was and what Lookout wrote. */
function change(context: HookContext, record: InstallRecord, path: string, next: string, before: string | null): void {
  if (before !== null) {
    // A backup may hold API keys the user keeps in that file: it is private, whatever the original's mode.
    const backups = join(context.home, 'hooks', 'backups');
    privateFolder(join(context.home, 'hooks'));
    writePrivate(join(backups, `${path.replace(/[\\/:]/g, '_')}.${new Date(context.now).toISOString().replace(/[:.]/g, '-')}`), before);
  }
  // The bytes to restore are the user's from before Lookout's first edit, as long as the file is
  // still what Lookout last wrote; once the user changed it, the current bytes are theirs.
  const previous = record.files[path];
  const stillOurs = previous !== undefined && before !== null && sha(before) === previous.after;
  record.files[path] = { before: stillOurs ? previous.before : before === null ? null : Buffer.from(before).toString('base64'), after: sha(next) };
  try {
    writeAtomic(path, next);
  } catch (error) {
    delete record.files[path];
    throw new HooksFileError(
      `${path} could not be written (${errorCode(error) ?? String(error)}); the files changed before it are recorded and uninstall takes them out`,
    );
  } finally {
    // Recorded after every file: a failure later in the same install leaves nothing unaccounted for.
    saveRecord(context.home, record);
  }
}

function installJson(
  context: HookContext,
  record: InstallRecord,
  path: string,
  specs: readonly HookSpec[],
  command: string,
  extra: Readonly<Record<string, unknown>>,
): string {
  const before = readText(path);
  const settings = parseHooksFile(before, path);
  if (hasOurHooks(settings, command).length === specs.length) return `${path}: already installed`;
  const next = addHooks(before, specs, command, extra);
  change(context, record, path, next, before);
  return `${path}: Lookout's hook added for ${specs.length} events${before === null ? ' (new file)' : ' (your hooks kept; a backup is in LOOKOUT_HOME/hooks/backups)'}`;
}

function writeShim(context: HookContext): void {
  if (context.platform === 'win32') return;
  const path = shimPath(context.home);
  // The agents run it as the same user: private, and executable by its owner only.
  const answering = { entries: answerEntries(), home: context.home, runFolder: runFolder(context.home), node: nodeBinary(), cli: context.cli };
  writePrivate(path, shimText(spoolFolder(context.home), shimEntries(), answering));
  chmodSync(path, 0o700);
}

/** Every provider's hook entries, for the shim's table. */
export function shimEntries(): ShimEntry[] {
  return hookProviders().flatMap((provider) => (provider.hooks?.entries ?? []).map((entry) => ({ ...entry, provider: provider.id })));
}

/** Every provider's answering hook entry, for the shim's table (installed or not: the arm is inert without its handler). */
export function answerEntries(): { name: string; provider: string }[] {
  return PROVIDERS.flatMap((provider) => (provider.answer.hook === null ? [] : [{ name: provider.answer.hook.entry, provider: provider.id }]));
}

/** What a provider's edits may use: the hook command, the spool, the user's environment. */
function placesOf(context: HookContext): HookPlaces {
  return {
    command: (entry) => hookCommand(context, entry),
    windows: context.platform === 'win32',
    spoolFolder: spoolFolder(context.home),
    runFolder: runFolder(context.home),
    env: context.env,
    userHome: context.env.HOME ?? homedir(),
  };
}

/**
 * The providers named, from the registry; every provider with hooks when none is named. Answering
 * hooks: install adds those that are not opt-in and those asked for; uninstall and status look at
 * every one.
 */
function editsOf(
  context: HookContext,
  providers: readonly ProviderDescriptor[],
  which: 'install' | 'all' = 'all',
): { provider: ProviderDescriptor; edits: HookEdit[]; answer: HookEdit[] }[] {
  const places = placesOf(context);
  return providers.flatMap((provider) => {
    if (provider.hooks === null) return [];
    const root = context.roots[provider.id] ?? '';
    const hook = provider.answer.hook;
    const wanted = hook !== null && (which === 'all' || !hook.optIn || (context.answer ?? []).includes(provider.id));
    return [{ provider, edits: provider.hooks.edits(root, places), answer: wanted && hook !== null ? hook.edits(root, places) : [] }];
  });
}

/** Parses every file first: a malformed one (JSON or TOML) refuses the whole change, and nothing changes. */
function parseAll(groups: readonly { edits: HookEdit[] }[]): void {
  for (const { edits } of groups) {
    for (const edit of edits) {
      const text = readText(edit.path);
      switch (edit.kind) {
        case 'json-hooks':
          parseHooksFile(text, edit.path);
          break;
        case 'toml-notify':
          if (text !== null) hasNotify(text, edit.path);
          break;
        case 'own-file':
          break;
      }
    }
  }
}

function installEdit(context: HookContext, record: InstallRecord, edit: HookEdit): string {
  switch (edit.kind) {
    case 'json-hooks':
      return installJson(context, record, edit.path, edit.events, hookCommand(context, edit.entry), edit.extra);
    case 'toml-notify': {
      const config = readText(edit.path);
      const argv = hookArgv(context, edit.entry);
      const line = notifyLine(argv);
      if (config !== null && notifyIs(config, argv, edit.path)) return `${edit.path}: notify already set to Lookout`;
      if (config !== null && hasNotify(config, edit.path)) return `${edit.path}: you have a notify program already; Lookout left it alone`;
      change(context, record, edit.path, addNotify(config ?? '', line, argv, edit.path), config);
      record.notifyLines[edit.path] = line;
      return `${edit.path}: notify set to Lookout's hook (turn ends)`;
    }
    case 'own-file':
      return installOwnFile(context.home, record, edit);
  }
}

export function install(context: HookContext, providers: readonly ProviderDescriptor[]): Outcome {
  const record = readRecord(context.home);
  const groups = editsOf(context, providers, 'install');
  parseAll(groups);
  writeShim(context);
  const lines: string[] = [];
  for (const { provider, edits, answer } of groups) {
    for (const edit of edits) lines.push(installEdit(context, record, edit));
    for (const edit of answer) lines.push(`${installEdit(context, record, edit)} (answering from Lookout)`);
    if (provider.hooks?.afterInstall != null) lines.push(provider.hooks.afterInstall);
  }
  saveRecord(context.home, record);
  return { lines };
}

function restore(record: InstallRecord, path: string, fallback: (text: string) => string): string {
  const current = readText(path);
  const entry = record.files[path];
  if (current === null) return `${path}: not there; nothing to remove`;
  if (entry !== undefined && sha(current) === entry.after) {
    // Untouched since Lookout wrote it: put back the user's exact bytes.
    if (entry.before === null) removeCreated(path);
    else writeAtomic(path, Buffer.from(entry.before, 'base64'));
    delete record.files[path];
    return `${path}: restored exactly as it was`;
  }
  const next = fallback(current);
  if (next !== current) writeAtomic(path, next);
  delete record.files[path];
  return next === current ? `${path}: no Lookout hook found` : `${path}: Lookout's hook removed (your later edits kept)`;
}

function uninstallEdit(context: HookContext, record: InstallRecord, edit: HookEdit): string {
  switch (edit.kind) {
    case 'json-hooks': {
      const command = hookCommand(context, edit.entry);
      return restore(record, edit.path, (text) => {
        const settings = parseHooksFile(text, edit.path);
        return hasOurHooks(settings, command).length === 0 ? text : removeHooks(text, command);
      });
    }
    case 'toml-notify': {
      const line = record.notifyLines[edit.path] ?? notifyLine(hookArgv(context, edit.entry));
      delete record.notifyLines[edit.path];
      return restore(record, edit.path, (text) => removeNotify(text, line));
    }
    case 'own-file':
      return uninstallOwnFile(record, edit);
  }
}

export function uninstall(context: HookContext, providers: readonly ProviderDescriptor[]): Outcome {
  const record = readRecord(context.home);
  const groups = editsOf(context, providers);
  parseAll(groups);
  // An answering hook that was never installed (opt-in) says nothing.
  const lines = groups.flatMap(({ edits, answer }) => [
    ...edits.map((edit) => uninstallEdit(context, record, edit)),
    ...answer
      .map((edit) => uninstallEdit(context, record, edit))
      .filter((line) => !line.endsWith('no Lookout hook found') && !line.endsWith('nothing to remove')),
  ]);
  const stillUsed = Object.keys(record.files).length > 0;
  if (!stillUsed && existsSync(shimPath(context.home))) rmSync(shimPath(context.home));
  saveRecord(context.home, record);
  return { lines };
}

function editStatus(context: HookContext, record: InstallRecord, edit: HookEdit): string {
  switch (edit.kind) {
    case 'json-hooks': {
      let installed: string[] = [];
      let note = '';
      try {
        installed = hasOurHooks(parseHooksFile(readText(edit.path), edit.path), hookCommand(context, edit.entry));
      } catch (error) {
        note = ` (${error instanceof Error ? error.message : String(error)})`;
      }
      const word =
        installed.length === 0 ? 'not installed' : installed.length === edit.events.length ? 'installed' : `partly installed (${installed.join(', ')})`;
      return `${word} in ${edit.path}${note}`;
    }
    case 'toml-notify': {
      const config = readText(edit.path) ?? '';
      try {
        return `  notify: ${notifyIs(config, hookArgv(context, edit.entry), edit.path) ? "Lookout's" : hasNotify(config, edit.path) ? 'your own (left alone)' : 'not set'}`;
      } catch (error) {
        return `  notify: unknown (${error instanceof Error ? error.message : String(error)})`;
      }
    }
    case 'own-file':
      return ownFileStatus(record, edit);
  }
}

/** Whether this agent's prompts can be answered from Lookout on this machine, and how. */
function answerStatus(context: HookContext, record: InstallRecord, provider: ProviderDescriptor, answer: readonly HookEdit[]): string {
  const hook = provider.answer.hook;
  if (hook === null) return provider.answer.how;
  const installed = answer.every((edit) => editStatus(context, record, edit).startsWith('installed'));
  if (installed) return `on — ${provider.answer.how}`;
  return hook.optIn
    ? `off (opt-in: lookout hooks install --answer ${provider.id}) — ${provider.answer.how}`
    : `off (install the hooks) — ${provider.answer.how}`;
}

export function status(context: HookContext, providers: readonly ProviderDescriptor[]): Outcome {
  const lines: string[] = [];
  const record = readRecord(context.home);
  for (const { provider, edits, answer } of editsOf(context, providers)) {
    for (const [index, edit] of edits.entries())
      lines.push(index === 0 ? `${provider.id}: ${editStatus(context, record, edit)}` : editStatus(context, record, edit));
    lines.push(`  answering from Lookout: ${answerStatus(context, record, provider, answer)}`);
    lines.push(`  without hooks Lookout sees: ${provider.hooks?.sees.without ?? ''}`);
    lines.push(`  with hooks it also sees: ${provider.hooks?.sees.with ?? ''}`);
  }
  return { lines };
}
