// Shared by the install tests: a fresh temp home with both agents' roots, and descriptors by id.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { HookContext } from '../../src/main/hooks/installer';
import type { ProviderDescriptor } from '../../src/providers';
import { findProvider } from '../../src/providers';

/** Descriptors from the registry, by id. */
export function providers(...ids: string[]): ProviderDescriptor[] {
  return ids.map((id) => {
    const provider = findProvider(id);
    if (provider === undefined) throw new Error(`no provider ${id}`);
    return provider;
  });
}

export type TestContext = HookContext & { dir: string; claude: string; codex: string; config: string };

let n = 0;

/** A new case folder under `base`: the agents' roots exist, LOOKOUT_HOME does not yet. */
export function installContext(base: string): TestContext {
  n += 1;
  const dir = join(base, `case-${n}`);
  mkdirSync(join(dir, 'claude'), { recursive: true });
  mkdirSync(join(dir, 'codex'), { recursive: true });
  return {
    dir,
    home: join(dir, 'home'),
    roots: { claude: join(dir, 'claude'), codex: join(dir, 'codex') },
    platform: 'linux',
    cli: '/opt/lookout/dist/cli.cjs',
    now: Date.parse('2026-11-29T12:00:00Z'),
    env: { HOME: dir },
    claude: join(dir, 'claude', 'settings.json'),
    codex: join(dir, 'codex', 'hooks.json'),
    config: join(dir, 'codex', 'config.toml'),
  };
}
