// The scene the README's pictures show (`npm run pictures`): a few believable sessions of several
// agents, written in the formats their providers read, with times just before now. One machine is
// "this" laptop; "devbox" is this machine again behind the test sshd (test/hosts/sshd.ts) with its
// own folders, as the host tests reach it. Nothing here is hostile input: that stays in the tests.
import { mkdirSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import type { Sshd } from '../../test/hosts/sshd';
import { sshUnavailable, startSshd } from '../../test/hosts/sshd';

export const HOST = 'devbox';

/** What the pictures promise, by session: the test checks each against `lookout status --json`. */
export const SESSIONS = {
  approval: { provider: 'claude', id: '5c1d6f0e-2b7a-4c3e-9a61-0f3b8d2e7a41', title: 'Fix flaky login test', folder: 'work/api', command: 'npm test' },
  failed: { provider: 'codex', id: '019e4c2a-7b3d-7e10-9f42-5a8c6d1e0b37', title: 'Retry failed webhooks with backoff', folder: 'work/payments' },
  review: { provider: 'claude', id: '9a7e3c52-1f4d-4b86-8e20-6d5b4a3c2f19', title: 'Add CSV export to reports', folder: 'work/dashboard' },
  working: { provider: 'copilot', id: '8e4b2a19-6d3c-4f70-b5a8-2c9e1d7f3b60', title: 'Move settings to the new form fields', folder: 'work/web' },
  remote: { provider: 'claude', id: '3f8a1c6d-4e2b-4a97-b0d5-7c1e9f2a6b84', title: 'Speed up the nightly ETL', folder: 'work/etl' },
  // Quiet for half an hour and more: in the collapsed Idle group, not in the pictures' rows.
  docs: { provider: 'codex', id: '019e4b77-3a1c-7d22-8e05-9b6f4c2d1a88', title: 'Document the release process', folder: 'work/api' },
  lint: { provider: 'claude', id: '6b2d9e41-8c3a-4f15-a7e6-1d0c5b4f3e27', title: 'Bump ESLint to v9', folder: 'work/web' },
} as const;

/** A session's key in this machine's list (`status --json`'s `key`, the rows' data-session-key). */
export function keyOf(session: { provider: string; id: string }, host: string | null = null): string {
  return `${host === null ? '' : `${host}:`}${session.provider}:${session.id}`;
}

export interface Scene {
  /** The local machine's environment: run `lookout` with it. */
  env: Record<string, string>;
  /** The rows the pictures show, by their keys: devbox's only when it could be reached. */
  keys: string[];
  /** What the scene lacks on this machine and why (no ssh, no git): said, never silently dropped. */
  notes: string[];
  stop(): Promise<void>;
}

type Env = Record<string, string>;

/** A machine's folders under `dir`, as the agents and Lookout find them from these variables. */
function machine(dir: string): Env {
  return {
    HOME: dir,
    LOOKOUT_HOME: join(dir, '.lookout'),
    CLAUDE_CONFIG_DIR: join(dir, '.claude'),
    CODEX_HOME: join(dir, '.codex'),
    GEMINI_CLI_HOME: dir,
    COPILOT_HOME: join(dir, '.copilot'),
    OPENCODE_DATA_DIR: join(dir, '.local', 'share', 'opencode'),
    // Each machine's own XDG folders, so nothing of the person running the script is read.
    XDG_CONFIG_HOME: join(dir, '.config'),
    XDG_DATA_HOME: join(dir, '.local', 'share'),
  };
}

const jsonl = (records: readonly object[]): string => records.map((record) => `${JSON.stringify(record)}\n`).join('');

/** A session's project folder: it exists, as the agent's folder does. */
function project(home: string, folder: string): string {
  const cwd = join(home, folder);
  mkdirSync(cwd, { recursive: true });
  return cwd;
}

/** Runs git in `cwd` with argv, reading no config of the person running the script. */
function git(cwd: string, home: string, args: string[]): void {
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'Sam Rivera',
    GIT_AUTHOR_EMAIL: 'sam@example.com',
    GIT_COMMITTER_NAME: 'Sam Rivera',
    GIT_COMMITTER_EMAIL: 'sam@example.com',
  };
  const run = spawnSync('git', args, { cwd, env, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`git ${args.join(' ')}: ${run.error?.message ?? run.stderr.trim()}`);
}

/** A checkout on `branch` with one commit, then the agent's edits: what "ready for review" reads. */
function checkout(cwd: string, home: string, branch: string, base: Record<string, string>, edits: Record<string, string>): void {
  const write = (files: Record<string, string>) => {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(cwd, path)), { recursive: true });
      writeFileSync(join(cwd, path), text);
    }
  };
  git(cwd, home, ['init', '-q', '-b', branch]);
  write(base);
  git(cwd, home, ['add', '-A']);
  git(cwd, home, ['commit', '-q', '-m', 'Reports page']);
  write(edits);
}

interface ClaudeTurn {
  id: string;
  cwd: string;
  branch: string;
  prompt: string;
  promptAt: number;
  /** The assistant's content blocks and when each was written. */
  replies: { at: number; content: object[]; stop: string | null }[];
  /** A finished turn's length (Claude writes turn_duration for long turns). */
  durationMs?: number;
}

/** A Claude Code transcript as 2.1.x writes it: projects/<folder as dashes>/<session id>.jsonl. */
function claudeTranscript(root: string, turn: ClaudeTurn): void {
  const base = { isSidechain: false, userType: 'external', entrypoint: 'cli', cwd: turn.cwd, sessionId: turn.id, version: '2.1.143', gitBranch: turn.branch };
  const uuid = (n: number) => `${turn.id.slice(0, 24)}${n.toString(16).padStart(12, '0')}`;
  const records: object[] = [
    {
      ...base,
      parentUuid: null,
      type: 'user',
      promptId: uuid(100),
      message: { role: 'user', content: turn.prompt },
      uuid: uuid(1),
      timestamp: new Date(turn.promptAt).toISOString(),
    },
  ];
  turn.replies.forEach((reply, index) => {
    records.push({
      ...base,
      parentUuid: uuid(index + 1),
      type: 'assistant',
      message: {
        id: `msg_${index + 1}`,
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: reply.content,
        stop_reason: reply.stop,
        stop_sequence: null,
        usage: { input_tokens: 1200, output_tokens: 180 },
      },
      requestId: `req_${index + 1}`,
      uuid: uuid(index + 2),
      timestamp: new Date(reply.at).toISOString(),
    });
  });
  const last = turn.replies[turn.replies.length - 1];
  if (turn.durationMs !== undefined && last !== undefined) {
    records.push({
      ...base,
      parentUuid: uuid(turn.replies.length + 1),
      type: 'system',
      subtype: 'turn_duration',
      isMeta: false,
      level: 'info',
      durationMs: turn.durationMs,
      uuid: uuid(turn.replies.length + 2),
      timestamp: new Date(last.at).toISOString(),
    });
  }
  const folder = join(root, 'projects', turn.cwd.replace(/[^A-Za-z0-9]/g, '-'));
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, `${turn.id}.jsonl`), jsonl(records));
}

interface CodexTurn {
  id: string;
  cwd: string;
  branch: string;
  prompt: string;
  openedAt: number;
  /** The records after the prompt, with their times. */
  after: { at: number; type: string; payload: object }[];
}

/** A Codex rollout as the CLI writes it: sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl. */
function codexRollout(root: string, turn: CodexTurn): void {
  const at = (ms: number) => new Date(ms).toISOString();
  const opened = turn.openedAt;
  const record = (ms: number, type: string, payload: object) => ({ timestamp: at(ms), type, payload });
  const folder = join(root, 'sessions', ...at(opened).slice(0, 10).split('-'));
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    join(folder, `rollout-${at(opened).slice(0, 19).replaceAll(':', '-')}-${turn.id}.jsonl`),
    jsonl([
      record(opened, 'session_meta', {
        id: turn.id,
        timestamp: at(opened),
        cwd: turn.cwd,
        originator: 'codex-tui',
        cli_version: '0.169.0',
        source: 'cli',
        model_provider: 'openai',
        git: { commit_hash: '4e1f9a2', branch: turn.branch, repository_url: 'git@github.com:acme/app.git' },
      }),
      record(opened, 'event_msg', { type: 'task_started', turn_id: 't1', started_at: Math.floor(opened / 1000), model_context_window: 258400 }),
      record(opened, 'turn_context', {
        turn_id: 't1',
        cwd: turn.cwd,
        approval_policy: 'on-request',
        sandbox_policy: { type: 'workspace-write' },
        model: 'gpt-5.1-codex',
        effort: 'medium',
        summary: 'auto',
      }),
      record(opened, 'response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: turn.prompt }] }),
      record(opened, 'event_msg', { type: 'user_message', message: turn.prompt, images: [], local_images: [], text_elements: [] }),
      ...turn.after.map((item) => record(item.at, item.type, item.payload)),
    ]),
  );
}

/** This machine's sessions; `now` is the time the ages count back from. Returns what could not be made. */
function laptop(env: Env, now: number): string[] {
  const home = env.HOME ?? '';
  const ago = (ms: number) => now - ms;
  const at = (ms: number) => new Date(ms).toISOString();

  // Claude asks to run the tests: the transcript holds the Bash call, Lookout's hook heard the prompt.
  const approval = SESSIONS.approval;
  const api = project(home, approval.folder);
  const toolInput = { command: approval.command, description: 'Run the test suite' };
  claudeTranscript(env.CLAUDE_CONFIG_DIR ?? '', {
    id: approval.id,
    cwd: api,
    branch: 'fix/login-flake',
    prompt: approval.title,
    promptAt: ago(185_000),
    replies: [
      { at: ago(150_000), content: [{ type: 'text', text: 'The login test races the session cookie; waiting on it explicitly.' }], stop: null },
      { at: ago(72_000), content: [{ type: 'tool_use', id: 'toolu_01', name: 'Bash', input: toolInput }], stop: 'tool_use' },
    ],
  });
  const hook = (ms: number, event: string, extra: object) => ({
    provider: 'claude',
    at: ms,
    precision: 'ms',
    channel: 'hook',
    payload: { session_id: approval.id, cwd: api, permission_mode: 'default', hook_event_name: event, ...extra },
  });
  mkdirSync(join(env.LOOKOUT_HOME ?? '', 'spool'), { recursive: true });
  writeFileSync(
    join(env.LOOKOUT_HOME ?? '', 'spool', 'claude.jsonl'),
    jsonl([
      hook(ago(185_000), 'UserPromptSubmit', { prompt: approval.title }),
      hook(ago(71_900), 'PreToolUse', { tool_name: 'Bash', tool_input: toolInput, tool_use_id: 'toolu_01' }),
      hook(ago(71_800), 'PermissionRequest', { tool_name: 'Bash', tool_input: toolInput }),
    ]),
  );

  // A long Claude turn that finished a few minutes ago with changes nobody has looked at yet.
  const review = SESSIONS.review;
  const dashboard = project(home, review.folder);
  const notes: string[] = [];
  try {
    checkout(
      dashboard,
      home,
      'feat/csv-export',
      { 'src/reports/page.tsx': 'export function ReportsPage() {\n  return <Table rows={useReports()} />;\n}\n' },
      {
        'src/reports/page.tsx':
          'export function ReportsPage() {\n  const rows = useReports();\n  return (\n    <>\n      <ExportButton rows={rows} />\n      <Table rows={rows} />\n    </>\n  );\n}\n',
        'src/reports/export-csv.ts':
          'export function toCsv(rows: Row[]): string {\n  return rows.map((row) => row.cells.map(quote).join(",")).join("\\n");\n}\n',
        'src/reports/export-csv.test.ts': 'test("quotes commas", () => expect(toCsv([row("a,b")])).toBe(\'"a,b"\'));\n',
      },
    );
  } catch (error) {
    // Without git the finish is still told, but only for a minute and a half (finishedTick).
    notes.push(`the review row has no changed files: ${error instanceof Error ? error.message : String(error)}`);
  }
  claudeTranscript(env.CLAUDE_CONFIG_DIR ?? '', {
    id: review.id,
    cwd: dashboard,
    branch: 'feat/csv-export',
    prompt: review.title,
    promptAt: ago(760_000),
    replies: [
      {
        at: ago(250_000),
        content: [{ type: 'text', text: 'Added an Export CSV button to the reports page, with a streaming endpoint and tests.' }],
        stop: 'end_turn',
      },
    ],
    durationMs: 510_000,
  });

  // Codex's turn that ended on the service's error (as 0.169 writes it: task_complete carrying it).
  const failed = SESSIONS.failed;
  const opened = ago(410_000);
  codexRollout(env.CODEX_HOME ?? '', {
    id: failed.id,
    cwd: project(home, failed.folder),
    branch: 'fix/webhooks',
    prompt: failed.title,
    openedAt: opened,
    after: [
      {
        at: opened + 21_000,
        type: 'response_item',
        payload: { type: 'reasoning', summary: [{ type: 'summary_text', text: '**Reading the webhook worker**' }], encrypted_content: 'gAAAA' },
      },
      {
        at: opened + 38_000,
        type: 'event_msg',
        payload: {
          type: 'task_complete',
          turn_id: 't1',
          last_agent_message: null,
          error: { message: 'We’re currently experiencing high demand, which may cause temporary errors.', codex_error_info: 'internal_server_error' },
          started_at: Math.floor(opened / 1000),
          completed_at: Math.floor((opened + 38_000) / 1000),
          duration_ms: 38_000,
        },
      },
    ],
  });

  // Earlier work, quiet now: the collapsed Idle group.
  const docs = SESSIONS.docs;
  const wrote = ago(1_900_000);
  codexRollout(env.CODEX_HOME ?? '', {
    id: docs.id,
    cwd: project(home, docs.folder),
    branch: 'main',
    prompt: docs.title,
    openedAt: wrote - 95_000,
    after: [
      { at: wrote, type: 'event_msg', payload: { type: 'agent_message', message: 'Wrote RELEASING.md.', phase: 'final_answer' } },
      {
        at: wrote,
        type: 'event_msg',
        payload: {
          type: 'task_complete',
          turn_id: 't1',
          last_agent_message: 'Wrote RELEASING.md.',
          completed_at: Math.floor(wrote / 1000),
          duration_ms: 95_000,
        },
      },
    ],
  });
  const lint = SESSIONS.lint;
  claudeTranscript(env.CLAUDE_CONFIG_DIR ?? '', {
    id: lint.id,
    cwd: project(home, lint.folder),
    branch: 'chore/eslint-9',
    prompt: lint.title,
    promptAt: ago(3_400_000),
    replies: [{ at: ago(3_050_000), content: [{ type: 'text', text: 'ESLint 9 with the flat config; the lint run is clean.' }], stop: 'end_turn' }],
    durationMs: 350_000,
  });

  // GitHub Copilot CLI at work: a turn opened two minutes ago, its newest words seconds old.
  const working = SESSIONS.working;
  const web = project(home, working.folder);
  const begun = ago(125_000);
  const events = join(env.COPILOT_HOME ?? '', 'session-state', working.id);
  mkdirSync(events, { recursive: true });
  let parent: string | null = null;
  const event = (n: number, ms: number, type: string, data: object) => {
    const id = `${working.id.slice(0, 24)}${n.toString(16).padStart(12, '0')}`;
    const record = { type, data, id, timestamp: at(ms), parentId: parent };
    parent = id;
    return record;
  };
  writeFileSync(
    join(events, 'events.jsonl'),
    jsonl([
      event(1, begun, 'session.start', {
        sessionId: working.id,
        version: 1,
        producer: 'copilot-agent',
        copilotVersion: '1.0.78',
        startTime: at(begun),
        context: { cwd: web, gitRoot: web, repository: 'acme/web', hostType: 'github', branch: 'feat/settings-forms' },
        alreadyInUse: false,
        remoteSteerable: false,
      }),
      event(2, begun + 2_000, 'user.message', { content: working.title, transformedContent: working.title, attachments: [], interactionId: 'i1' }),
      event(3, begun + 3_000, 'assistant.turn_start', { turnId: '0', interactionId: 'i1' }),
      event(4, ago(2_000), 'assistant.message', {
        messageId: 'm4',
        content: 'Moving the notification settings onto the shared form fields.',
        toolRequests: [],
        interactionId: 'i1',
        turnId: '0',
        outputTokens: 14,
      }),
    ]),
  );
  return notes;
}

/** The other machine's one session: Claude asking which way to go. */
function devbox(env: Env, now: number): void {
  const remote = SESSIONS.remote;
  const etl = project(env.HOME ?? '', remote.folder);
  claudeTranscript(env.CLAUDE_CONFIG_DIR ?? '', {
    id: remote.id,
    cwd: etl,
    branch: 'main',
    prompt: remote.title,
    promptAt: now - 420_000,
    replies: [
      {
        at: now - 95_000,
        content: [
          {
            type: 'tool_use',
            id: 'toolu_q1',
            name: 'AskUserQuestion',
            input: {
              questions: [
                {
                  question: 'Batch the inserts by 5,000 rows or by partition?',
                  header: 'Batching',
                  options: [{ label: 'By 5,000 rows' }, { label: 'By partition' }],
                },
              ],
            },
          },
        ],
        stop: 'tool_use',
      },
    ],
  });
}

/**
 * Writes the scene under `dir` (made if missing; best empty) and, when ssh and sshd are here,
 * starts the sshd that stands for devbox. `cli` is the built command line devbox runs.
 */
export async function buildScene(dir: string, cli: string, now = Date.now()): Promise<Scene> {
  const env = machine(join(dir, 'laptop'));
  for (const folder of [env.LOOKOUT_HOME, env.CLAUDE_CONFIG_DIR, env.CODEX_HOME]) mkdirSync(folder ?? '', { recursive: true });
  const notes = laptop(env, now);
  const keys = [SESSIONS.approval, SESSIONS.failed, SESSIONS.review, SESSIONS.working].map((session) => keyOf(session));
  const without = (why: string): Scene => ({ env, keys, notes: [...notes, `no ${HOST} row: ${why}`], stop: async () => {} });
  const unavailable = sshUnavailable();
  if (unavailable !== null) return without(unavailable);
  const remote = machine(join(dir, HOST));
  // devbox's command is plain words (`hosts add --command`): a folder or program with a space cannot be one.
  if ([...Object.values(remote), process.execPath, cli].some((word) => /\s/.test(word))) return without(`a path holds a space (${dir}, ${cli})`);
  mkdirSync(remote.CLAUDE_CONFIG_DIR ?? '', { recursive: true });
  devbox(remote, now);
  let sshd: Sshd;
  try {
    sshd = await startSshd(join(dir, 'sshd'), [HOST]);
  } catch (error) {
    return without(`the test sshd did not start (${error instanceof Error ? error.message : String(error)})`);
  }
  const command = ['env', ...Object.entries(remote).map(([name, value]) => `${name}=${value}`), process.execPath, cli].join(' ');
  writeFileSync(join(env.LOOKOUT_HOME ?? '', 'settings.json'), `${JSON.stringify({ hosts: [{ name: HOST, destination: HOST, command }] }, null, 2)}\n`);
  return { env: { ...env, LOOKOUT_SSH_CONFIG: sshd.config }, keys: [...keys, keyOf(SESSIONS.remote, HOST)], notes, stop: () => sshd.stop() };
}
