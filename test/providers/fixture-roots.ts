// Loads the provider fixtures (test/fixtures/<provider>/<name>/ roots with <name>.meta.json).
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Row } from '../../src/engine';
import { defaultSettings, emptyFacts, evaluate } from '../../src/engine';
import { ClaudeProvider } from '../../src/providers/claude/provider';
import { CodexProvider } from '../../src/providers/codex/provider';
import { CopilotProvider } from '../../src/providers/copilot/provider';
import type { EvidenceSource } from '../../src/providers/source';

/** The providers with fixtures in their real shapes. */
export type FixtureProvider = 'claude' | 'codex' | 'copilot';

export const FIXTURES = resolve(__dirname, '../fixtures');

export interface FixtureCheck {
  now: string;
  state: string;
  reason: string;
  workflow: string;
  liveness: string;
  claim: string | null;
  title?: string;
  branch?: string;
  skippedLines?: number;
}

export interface FixtureMeta {
  imitates: string;
  shows: string;
  sessionKey: string;
  story: string | null;
  checks: FixtureCheck[];
}

export interface Fixture {
  provider: FixtureProvider;
  name: string;
  root: string;
  meta: FixtureMeta;
}

export function fixtures(provider: FixtureProvider): Fixture[] {
  const folder = join(FIXTURES, provider);
  return readdirSync(folder)
    .filter((name) => name.endsWith('.meta.json'))
    .map((file) => {
      const name = file.replace(/\.meta\.json$/, '');
      return { provider, name, root: join(folder, name), meta: JSON.parse(readFileSync(join(folder, file), 'utf8')) as FixtureMeta };
    });
}

export function sourceFor(provider: FixtureProvider, root: string): EvidenceSource {
  switch (provider) {
    case 'claude':
      return new ClaudeProvider(root);
    case 'codex':
      return new CodexProvider(root);
    case 'copilot':
      return new CopilotProvider(root);
  }
}

/** Reads a fixture root with its provider and evaluates it at `now`: the row for `key`. */
export async function rowAt(provider: FixtureProvider, root: string, key: string, now: number): Promise<{ row: Row | undefined; rows: Row[] }> {
  const source = sourceFor(provider, root);
  const evidence = await source.sync(now);
  const { snapshot } = evaluate({ sessions: evidence, facts: emptyFacts(), settings: defaultSettings(), now, onScreen: null });
  return { row: snapshot.sessions.find((row) => row.key === key), rows: snapshot.sessions };
}

export function summary(row: Row): Pick<FixtureCheck, 'state' | 'reason' | 'workflow' | 'liveness' | 'claim'> {
  return { state: row.observed.state, reason: row.observed.reason, workflow: row.workflow, liveness: row.children.liveness, claim: row.claim?.kind ?? null };
}
