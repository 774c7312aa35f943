// The provider registry: every agent Lookout reads, listed once. Adding a provider is a folder
// under src/providers/ and one line here (docs/providers.md).
import type { AnswerHook } from './answer-hook';
import { chooseRoot } from './roots';
import { claudeDescriptor } from './claude/descriptor';
import { codexDescriptor } from './codex/descriptor';
import { copilotDescriptor } from './copilot/descriptor';
import { opencodeDescriptor } from './opencode/descriptor';
import { kiloDescriptor } from './kilo/descriptor';
import { clineDescriptor } from './cline/descriptor';
import { geminiDescriptor } from './gemini/descriptor';
import { droidDescriptor } from './droid/descriptor';
import { qwenDescriptor } from './qwen/descriptor';
import { piDescriptor } from './pi/descriptor';
import type { HookEntry, ProviderDescriptor } from './descriptor';

export const PROVIDERS: readonly ProviderDescriptor[] = [
  claudeDescriptor,
  codexDescriptor,
  copilotDescriptor,
  opencodeDescriptor,
  kiloDescriptor,
  geminiDescriptor,
  droidDescriptor,
  clineDescriptor,
  qwenDescriptor,
  piDescriptor,
];

export type { HookEdit, HookEntry, HookPlaces, HookSpec, ProviderDescriptor } from './descriptor';

/** Each provider's root folder, by id. */
export type ProviderRoots = Readonly<Record<string, string>>;

export function providerIds(): string[] {
  return PROVIDERS.map((provider) => provider.id);
}

export function findProvider(id: string): ProviderDescriptor | undefined {
  return PROVIDERS.find((provider) => provider.id === id);
}

/** The providers that offer hooks. */
export function hookProviders(): ProviderDescriptor[] {
  return PROVIDERS.filter((provider) => provider.hooks !== null);
}

/** Each provider with hooks and how it reads its spool lines (the spool reader's table). */
export function spoolReaders(ids?: readonly string[]): { id: string; read: NonNullable<ProviderDescriptor['hooks']>['read'] }[] {
  return hookProviders()
    .filter((provider) => ids === undefined || ids.includes(provider.id))
    .flatMap((provider) => (provider.hooks === null ? [] : [{ id: provider.id, read: provider.hooks.read }]));
}

/** The hook program a word names (`lookout hook <word>`), with its provider. */
export function findHookEntry(name: string): { provider: ProviderDescriptor; entry: HookEntry } | undefined {
  for (const provider of PROVIDERS) {
    const entry = provider.hooks?.entries.find((item) => item.name === name);
    if (entry !== undefined) return { provider, entry };
  }
  return undefined;
}

/** The answering hook a word names (`lookout hook <provider>-answer`), with its provider. */
export function findAnswerHook(name: string): { provider: ProviderDescriptor; hook: AnswerHook } | undefined {
  for (const provider of PROVIDERS) {
    const hook = provider.answer.hook;
    if (hook !== null && hook.entry === name) return { provider, hook };
  }
  return undefined;
}

/** Each provider's words for a prompt it cannot have answered from Lookout (the rows' "answer in the terminal"). */
export function answerHints(): Record<string, string> {
  return Object.fromEntries(PROVIDERS.map((provider) => [provider.id, provider.answer.hint]));
}

/** The providers whose answering request follows the hook that raised a prompt. */
export function answeringProviders(): ReadonlySet<string> {
  return new Set(PROVIDERS.filter((provider) => provider.answer.followsHook).map((provider) => provider.id));
}

/** Short display names by id (rows and notifications). */
export function shortNames(): Record<string, string> {
  return Object.fromEntries(PROVIDERS.map((provider) => [provider.id, provider.shortName]));
}

/**
 * Where each agent keeps its files: the agent's own variables win (in its order), then the folder
 * chosen in the settings, then XDG, then its default under the home directory (cli.md, ./roots.ts).
 */
export function resolveRoots(env: NodeJS.ProcessEnv, chosen: Readonly<Record<string, string | undefined>> = {}): ProviderRoots {
  return Object.fromEntries(PROVIDERS.map((provider) => [provider.id, chooseRoot(provider, env, chosen).path]));
}
