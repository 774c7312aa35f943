// Lookout as the lab runs it: the built command line, in the scenario's own home, read as JSON.
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

/** The built command line; LOOKOUT_LAB_CLI runs the lab against another build (an older one, to see a scenario fail). */
export const CLI = process.env.LOOKOUT_LAB_CLI ?? resolve(__dirname, '../../../dist/cli.cjs');

export interface LabRow {
  key: string;
  provider: string;
  sessionId: string;
  title: string | null;
  cwd: string | null;
  observed: { state: string; reason: string; detail: string | null; source: string; confidence: string; at: string | null };
  claim: { kind: string; detail: string | null } | null;
  /** R80: the instant a usage limit resets (ISO), where the agent named one. */
  resetsAt?: string | null;
  children: unknown;
  /** §13: the prompt Lookout can answer, an answer awaiting the agent, or why not. */
  answer:
    | {
        state: 'open';
        request: string;
        digest: string;
        prompt: string;
        tool: string;
        text: string;
        questions: { question: string; options: { label: string }[] }[];
        since: string;
        keysFrom: string;
        serial: boolean;
        deadline: string;
      }
    | { state: 'answered' | 'elsewhere'; request: string; at: string; answer?: string | null }
    | { state: 'unavailable'; why: string }
    | null;
}

export interface LabSnapshot {
  now: string;
  sessions: LabRow[];
}

export function lookout(args: readonly string[], env: NodeJS.ProcessEnv, input?: string): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [CLI, ...args], { env, encoding: 'utf8', timeout: 60_000, input });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** `lookout status --json --all`: every row, historical ones too (a scenario checks its own). */
export function status(env: NodeJS.ProcessEnv): LabSnapshot {
  const result = lookout(['status', '--json', '--all'], env);
  if (result.code !== 0) throw new Error(`lookout status exited ${String(result.code)}: ${result.stderr}`);
  return JSON.parse(result.stdout) as LabSnapshot;
}

/** One line per row, for failure messages. */
export function describeRows(snapshot: LabSnapshot): string {
  return snapshot.sessions
    .map(
      (row) =>
        `${row.key} ${row.observed.state}/${row.observed.reason} via ${row.observed.source} (${row.observed.confidence}) claim=${row.claim?.kind ?? '-'} detail=${row.observed.detail ?? ''}`,
    )
    .join('\n');
}
