// A home where a Claude session asks for approval through its answering hook (§13), without a
// real agent: a fresh transcript with a pending Bash call, the PermissionRequest spool line the
// plain hook writes, then the answering hook itself (askLookout), waiting on the running Lookout.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { askLookout } from '../../src/main/answer/hook-client';
import { writeSpool } from '../../src/main/hooks/spool-writer';
import { spoolFolder } from '../../src/main/store/home';
import { findAnswerHook } from '../../src/providers';

export interface AnswerHome {
  dir: string;
  env: Record<string, string>;
  home: string;
  remove(): void;
}

/** The allow a Claude PermissionRequest hook prints. */
export const ALLOW_JSON = '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}\n';

/**
 * A short folder under /tmp (the channel's socket path must stay within 103 bytes) holding the
 * agents' roots and LOOKOUT_HOME with this settings.json.
 */
export function answerHome(settings: Record<string, unknown>): AnswerHome {
  const dir = mkdtempSync('/tmp/lk-');
  const home = join(dir, 'h');
  mkdirSync(home, { recursive: true, mode: 0o700 });
  writeFileSync(join(home, 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
  return {
    dir,
    home,
    env: {
      CLAUDE_CONFIG_DIR: join(dir, 'claude'),
      CODEX_HOME: join(dir, 'codex'),
      COPILOT_HOME: join(dir, 'copilot'),
      OPENCODE_DATA_DIR: join(dir, 'opencode'),
      LOOKOUT_HOME: home,
      HOME: dir,
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

let sessions = 0;

/** A tool call as Claude Code makes it: Bash with a command unless said otherwise. */
export type ToolCall = { tool: string; input: Record<string, unknown> };
const callOf = (call: string | ToolCall): ToolCall => (typeof call === 'string' ? { tool: 'Bash', input: { command: call } } : call);

/** A session whose turn has a pending tool call, written a moment ago; returns its key. */
export function claudeSession(fixture: AnswerHome, call: string | ToolCall): { key: string; sessionId: string; cwd: string } {
  const { tool, input } = callOf(call);
  sessions += 1;
  const sessionId = `c1a00000-0000-4000-8000-${String(sessions).padStart(12, '0')}`;
  const cwd = join(fixture.dir, 'work');
  const folder = join(fixture.env.CLAUDE_CONFIG_DIR ?? '', 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-'));
  mkdirSync(folder, { recursive: true });
  const at = (ago: number) => new Date(Date.now() - ago).toISOString();
  const base = { isSidechain: false, userType: 'external', entrypoint: 'cli', cwd, sessionId, version: '2.1.143', gitBranch: 'main' };
  const records = [
    { ...base, parentUuid: null, type: 'user', message: { role: 'user', content: 'clean the build' }, uuid: 'u1', timestamp: at(4000) },
    {
      ...base,
      parentUuid: 'u1',
      type: 'assistant',
      message: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [{ type: 'tool_use', id: 'toolu_1', name: tool, input }],
        stop_reason: 'tool_use',
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 5 },
      },
      uuid: 'a1',
      timestamp: at(3000),
    },
  ];
  writeFileSync(join(folder, `${sessionId}.jsonl`), records.map((record) => `${JSON.stringify(record)}\n`).join(''));
  return { key: `claude:${sessionId}`, sessionId, cwd };
}

/**
 * The prompt as Claude Code raises it: the plain hook's spool line, then the answering hook,
 * which waits on the running Lookout and resolves with what it would print ('' for none).
 */
export function askFromHook(fixture: AnswerHome, session: { sessionId: string; cwd: string }, call: string | ToolCall, wait = 120_000): Promise<string> {
  const { tool, input } = callOf(call);
  const payload = {
    hook_event_name: 'PermissionRequest',
    session_id: session.sessionId,
    cwd: session.cwd,
    permission_mode: 'default',
    tool_name: tool,
    tool_input: input,
  };
  if (!writeSpool(spoolFolder(fixture.home), 'claude', 'hook', JSON.stringify(payload), Date.now())) throw new Error('the spool line was not written');
  const found = findAnswerHook('claude-answer');
  if (found === undefined) throw new Error('no claude-answer hook in the registry');
  return askLookout(fixture.home, found.hook, payload, wait);
}
