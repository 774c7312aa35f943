// Issue 22's provider-side cases in small: a question's PermissionRequest, an idle notice after a
// StopFailure, Codex's notify for its title thread, the thread-writer lock, a database's writers.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spoolReaders } from '../../src/providers';
import { readHookPayload } from '../../src/providers/hooks/events';
import { mergeHooks } from '../../src/providers/hooks/merge';
import { HookSpool } from '../../src/providers/hooks/spool-reader';
import { LockTable, writerLock } from '../../src/providers/codex/writer-lock';
import { procHolders } from '../../src/providers/system/file-holders';
import { WriterCheck } from '../../src/providers/open-turn';
import { session } from '../engine/build';
import { waitFor } from '../wait';

const scratch = mkdtempSync(join(tmpdir(), 'lookout-live-cases-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function spoolWith(provider: string, lines: { at: number; channel: 'hook' | 'notify'; payload: Record<string, unknown> }[]): string {
  const folder = mkdtempSync(join(scratch, 'spool-'));
  writeFileSync(
    join(folder, `${provider}.jsonl`),
    `${lines.map((line) => JSON.stringify({ payload: line.payload, provider, at: line.at, precision: 'ms', channel: line.channel })).join('\n')}\n`,
  );
  return folder;
}

describe('hooks as the agents fire them (issue 22)', () => {
  it("case 6: Claude's PermissionRequest for AskUserQuestion asks for input, with the question as its detail", () => {
    const fact = readHookPayload({
      hook_event_name: 'PermissionRequest',
      tool_name: 'AskUserQuestion',
      tool_input: { questions: [{ question: 'Which colour?', options: [{ label: 'Red' }] }] },
    });
    expect(fact).toMatchObject({ kind: 'event', event: 'input-request', detail: 'asks: Which colour?' });
    expect(readHookPayload({ hook_event_name: 'PermissionRequest', tool_name: 'Bash', tool_input: { command: 'rm -rf build' } })).toMatchObject({
      kind: 'event',
      event: 'permission-request',
      detail: 'Bash: rm -rf build',
    });
  });

  it("case 1: an idle notice after a StopFailure keeps the failure as the session's last word", async () => {
    const folder = spoolWith('claude', [
      { at: 1000, channel: 'hook', payload: { hook_event_name: 'UserPromptSubmit', session_id: 's1' } },
      { at: 3000, channel: 'hook', payload: { hook_event_name: 'StopFailure', session_id: 's1', error: 'server_error' } },
      { at: 63000, channel: 'hook', payload: { hook_event_name: 'Notification', notification_type: 'idle_prompt', session_id: 's1', message: 'waiting' } },
    ]);
    const sessions = await new HookSpool(folder, spoolReaders(['claude'])).sync();
    expect(sessions.get('claude:s1')?.last).toMatchObject({ event: 'stop-failure', at: 3000 });
  });

  it("a permission notification after the PermissionRequest it follows keeps the request's own words (Claude 2.1.332, found by lab:latest)", async () => {
    const folder = spoolWith('claude', [
      {
        at: 1000,
        channel: 'hook',
        payload: { hook_event_name: 'PermissionRequest', session_id: 's2', tool_name: 'Bash', tool_input: { command: 'touch lab-made.txt' } },
      },
      {
        at: 1010,
        channel: 'hook',
        payload: { hook_event_name: 'Notification', notification_type: 'permission_prompt', session_id: 's2', message: 'Claude needs your permission' },
      },
    ]);
    const sessions = await new HookSpool(folder, spoolReaders(['claude'])).sync();
    expect(sessions.get('claude:s2')?.last).toMatchObject({ event: 'permission-request', at: 1000, detail: 'Bash: touch lab-made.txt' });
  });

  // Claude runs its hooks async: each is its own process, and they land in the spool in any order (a loaded CI machine, 2.1.328).
  const promptHooks = (tool: string, input: Record<string, unknown>): Record<string, unknown>[] => [
    { hook_event_name: 'PreToolUse', tool_name: tool, tool_input: input, tool_use_id: 'toolu_1', prompt_id: 'p1' },
    { hook_event_name: 'PermissionRequest', tool_name: tool, tool_input: input, prompt_id: 'p1' },
    { hook_event_name: 'Notification', notification_type: 'permission_prompt', message: 'Claude needs your permission' },
  ];
  const orders = (count: number): number[][] =>
    count === 0 ? [[]] : orders(count - 1).flatMap((order) => Array.from({ length: count }, (_, at) => [...order.slice(0, at), count - 1, ...order.slice(at)]));
  const lastOf = async (id: string, payloads: Record<string, unknown>[]): Promise<unknown> => {
    const lines = [{ hook_event_name: 'UserPromptSubmit', prompt_id: 'p1' }, ...payloads].map((payload, index) => ({
      at: 1000 + index * 10,
      channel: 'hook' as const,
      payload: { ...payload, session_id: id },
    }));
    return (await new HookSpool(spoolWith('claude', lines), spoolReaders(['claude'])).sync()).get(`claude:${id}`)?.last;
  };

  it("R3 case 6: a question's PreToolUse, PermissionRequest and permission notification in any of their 6 orders read as the question, never a permission", async () => {
    const hooks = promptHooks('AskUserQuestion', {
      questions: [{ question: 'Which colour should the badge be?', options: [{ label: 'Red' }, { label: 'Blue' }] }],
    });
    const seen = await Promise.all(
      orders(3).map(async (order, index) => ({
        order: order.join(''),
        last: await lastOf(
          `q${index}`,
          order.map((at) => hooks[at] ?? {}),
        ),
      })),
    );
    expect(seen).toHaveLength(6);
    for (const { order, last } of seen)
      expect({ order, last }).toMatchObject({ order, last: { event: 'input-request', detail: 'asks: Which colour should the badge be?' } });
  });

  it("R8 a command's PreToolUse written after its own PermissionRequest leaves the request standing, in the command's words", async () => {
    const hooks = promptHooks('Bash', { command: 'touch lab-made.txt' });
    for (const order of orders(3))
      expect({
        order: order.join(''),
        last: await lastOf(
          `b${order.join('')}`,
          order.map((at) => hooks[at] ?? {}),
        ),
      }).toMatchObject({ last: { event: 'permission-request', detail: 'Bash: touch lab-made.txt' } });
    // Another call's PreToolUse is not late: it means the prompt was answered and work goes on.
    const other = { ...hooks[0], tool_input: { command: 'ls' } };
    expect(await lastOf('b-other', [hooks[0] ?? {}, hooks[1] ?? {}, other])).toMatchObject({ event: 'mid-turn', detail: 'Bash: ls' });
  });

  it("R8 an earlier call's end written after the next call's PermissionRequest leaves the request standing: 17 of the 24 orders", async () => {
    const calls: Record<string, unknown>[] = [
      { hook_event_name: 'PreToolUse', tool_name: 'Read', tool_input: { file_path: '/a' }, tool_use_id: 'toolu_a', prompt_id: 'p1' },
      { hook_event_name: 'PostToolUse', tool_name: 'Read', tool_input: { file_path: '/a' }, tool_use_id: 'toolu_a', prompt_id: 'p1' },
      { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm x' }, tool_use_id: 'toolu_b', prompt_id: 'p1' },
      { hook_event_name: 'PermissionRequest', tool_name: 'Bash', tool_input: { command: 'rm x' }, prompt_id: 'p1' },
    ];
    // Left as work: a start of another call after the request, or the other call's end before the
    // request's own start is in, looks the same as a prompt answered and work going on.
    const unresolved = ['3120', '3102', '3201', '2301', '3021', '3012', '0312'];
    for (const order of orders(4)) {
      const last = await lastOf(
        `r${order.join('')}`,
        order.map((at) => calls[at] ?? {}),
      );
      expect({ order: order.join(''), last }).toMatchObject({
        last: unresolved.includes(order.join('')) ? { event: 'mid-turn' } : { event: 'permission-request', detail: 'Bash: rm x' },
      });
    }
    // The requested call's own end (approved, it ran) is the answer, whatever ended beside it.
    const ran = { ...calls[2], hook_event_name: 'PostToolUse' };
    expect(await lastOf('r-approved', [...calls, ran])).toMatchObject({ event: 'mid-turn', detail: 'Bash: rm x' });
    expect(await lastOf('r-approved-late', [calls[0] ?? {}, calls[2] ?? {}, calls[3] ?? {}, ran, calls[1] ?? {}])).toMatchObject({ event: 'mid-turn' });
    // Denied, then asked again for the same command (a new call with the same key): the approved call's end answers it.
    const again = [
      calls[2] ?? {},
      calls[3] ?? {},
      { ...calls[2], tool_use_id: 'toolu_c' },
      calls[3] ?? {},
      { ...calls[2], tool_use_id: 'toolu_c', hook_event_name: 'PostToolUse' },
    ];
    expect(await lastOf('r-again', again)).toMatchObject({ event: 'mid-turn', detail: 'Bash: rm x' });
    // A request whose call was never seen starting names no call the fold knows: another call's end answers it, as before.
    expect(await lastOf('r-unknown', [calls[0] ?? {}, calls[3] ?? {}, calls[1] ?? {}])).toMatchObject({ event: 'mid-turn', detail: 'Read: /a' });
  });

  it("R3 a permission notification while a question's tool has started, its PermissionRequest not written, reads input with the question's words", async () => {
    const hooks = promptHooks('AskUserQuestion', { questions: [{ question: 'Which colour?' }] });
    expect(await lastOf('q-none', [hooks[0] ?? {}, hooks[2] ?? {}])).toMatchObject({
      event: 'input-request',
      detail: 'asks: Which colour?',
      restates: true,
      at: 1020,
    });
    // A command's tool started, then the same notification: a permission, in the notification's words.
    const bash = promptHooks('Bash', { command: 'ls' });
    expect(await lastOf('b-none', [bash[0] ?? {}, bash[2] ?? {}])).toMatchObject({
      event: 'permission-request',
      detail: 'Claude needs your permission',
      restates: true,
    });
  });

  it("R1 a turn's own prompt and tool hooks written after its Stop change nothing: it reads stopped in 20 of the 24 orders", async () => {
    const turn: Record<string, unknown>[] = [
      { hook_event_name: 'UserPromptSubmit', prompt_id: 'p1' },
      { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 'toolu_1', prompt_id: 'p1' },
      { hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 'toolu_1', prompt_id: 'p1' },
      { hook_event_name: 'Stop', prompt_id: 'p1', stop_hook_active: false },
    ];
    const read = async (order: number[]): Promise<unknown> => {
      const lines = order.map((index, at) => ({ at: 1000 + at * 10, channel: 'hook' as const, payload: { ...turn[index], session_id: `t${order.join('')}` } }));
      return (await new HookSpool(spoolWith('claude', lines), spoolReaders(['claude'])).sync()).get(`claude:t${order.join('')}`)?.last;
    };
    const all = orders(4);
    // Both tool hooks after the Stop, in their own order: a stop hook's continuation looks the same, so the call reads as work.
    const continuation = (order: number[]): boolean => order.indexOf(3) < order.indexOf(1) && order.indexOf(1) < order.indexOf(2);
    expect(all.filter(continuation)).toHaveLength(4);
    for (const order of all) {
      expect({ order: order.join(''), last: await read(order) }).toMatchObject({ last: { event: continuation(order) ? 'mid-turn' : 'stop' } });
    }
  });

  it("R1 a turn's Stop written after the next turn's hooks (a queued prompt is sent as the turn stops) leaves the next turn running, in all 6 orders", async () => {
    const next: Record<string, unknown>[] = [
      { hook_event_name: 'Stop', prompt_id: 'p1', stop_hook_active: false },
      { hook_event_name: 'UserPromptSubmit', prompt_id: 'p2' },
      { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'npm test' }, tool_use_id: 'toolu_2', prompt_id: 'p2' },
    ];
    for (const order of orders(3)) {
      expect({
        order: order.join(''),
        last: await lastOf(
          `s${order.join('')}`,
          order.map((at) => next[at] ?? {}),
        ),
      }).toMatchObject({ last: { event: 'mid-turn' } });
    }
    // The earlier turn's end after the next one's own Stop changes nothing either: the session is idle.
    expect(await lastOf('s-both', [next[1] ?? {}, { hook_event_name: 'Stop', prompt_id: 'p2' }, next[0] ?? {}])).toMatchObject({ event: 'stop' });
    // A request is never dropped, whichever turn it names: on doubt, the prompt shows.
    expect(
      await lastOf('s-request', [next[1] ?? {}, { hook_event_name: 'PermissionRequest', tool_name: 'Bash', tool_input: { command: 'rm x' }, prompt_id: 'p1' }]),
    ).toMatchObject({ event: 'permission-request', detail: 'Bash: rm x' });
  });

  it("R11.2 a subagent's hooks land in any order too: its PreToolUse written after its own PermissionRequest leaves the child's request standing", async () => {
    const inside = promptHooks('Bash', { command: 'rm -rf build' })
      .slice(0, 2)
      .map((payload) => ({ ...payload, agent_id: 'agent-7', agent_type: 'builder' }));
    for (const order of orders(2)) {
      const lines = [{ hook_event_name: 'SubagentStart', agent_id: 'agent-7', agent_type: 'builder' }, ...order.map((at) => inside[at] ?? {})].map(
        (payload, index) => ({ at: 1000 + index * 10, channel: 'hook' as const, payload: { ...payload, session_id: `a${order.join('')}` } }),
      );
      const child = (await new HookSpool(spoolWith('claude', lines), spoolReaders(['claude'])).sync())
        .get(`claude:a${order.join('')}`)
        ?.subagents.get('agent-7');
      expect({ order: order.join(''), child }).toMatchObject({
        child: { name: 'builder', stoppedAt: null, last: { event: 'permission-request', detail: 'Bash: rm -rf build' } },
      });
    }
    // Its SubagentStart written after its request, or after its SubagentStop: the request stands, the stop stays.
    const childOf = async (id: string, payloads: Record<string, unknown>[]) => {
      const lines = payloads.map((payload, index) => ({ at: 1000 + index * 10, channel: 'hook' as const, payload: { ...payload, session_id: id } }));
      return (await new HookSpool(spoolWith('claude', lines), spoolReaders(['claude'])).sync()).get(`claude:${id}`)?.subagents.get('agent-7');
    };
    const start = { hook_event_name: 'SubagentStart', agent_id: 'agent-7', agent_type: 'builder' };
    expect(await childOf('a-late-start', [...inside, start])).toMatchObject({
      name: 'builder',
      startedAt: 1000,
      stoppedAt: null,
      last: { event: 'permission-request' },
    });
    expect(await childOf('a-late-start-stop', [{ hook_event_name: 'SubagentStop', agent_id: 'agent-7' }, start])).toMatchObject({
      name: 'builder',
      startedAt: 1000,
      stoppedAt: 1000,
    });
    // A child across the rotated spool and the live one: its name and start from the older file, its latest word from the newer.
    const folder = mkdtempSync(join(scratch, 'spool-'));
    const write = (name: string, payloads: Record<string, unknown>[], from: number) =>
      writeFileSync(
        join(folder, name),
        `${payloads.map((payload, index) => JSON.stringify({ payload: { ...payload, session_id: 'rot' }, provider: 'claude', at: from + index * 10, precision: 'ms', channel: 'hook' })).join('\n')}\n`,
      );
    write('claude.jsonl.1', [start, ...inside], 1000);
    write('claude.jsonl', [{ ...inside[0], hook_event_name: 'PostToolUse' }], 2000);
    const rotated = (await new HookSpool(folder, spoolReaders(['claude'])).sync()).get('claude:rot')?.subagents.get('agent-7');
    expect(rotated).toMatchObject({ name: 'builder', startedAt: 1000, stoppedAt: null, last: { event: 'mid-turn', at: 2000 } });
    write('claude.jsonl', [{ hook_event_name: 'SubagentStop', agent_id: 'agent-7' }], 2000);
    const stopped = (await new HookSpool(folder, spoolReaders(['claude'])).sync()).get('claude:rot')?.subagents.get('agent-7');
    expect(stopped).toMatchObject({ name: 'builder', startedAt: 1000, stoppedAt: 2000, last: { event: 'permission-request' } });
  });

  it('R8 R1 the rules for hooks written late reach across the rotated spool and the live one', async () => {
    const folder = mkdtempSync(join(scratch, 'spool-'));
    const write = (name: string, payloads: Record<string, unknown>[], from: number) =>
      writeFileSync(
        join(folder, name),
        `${payloads.map((payload, index) => JSON.stringify({ payload: { ...payload, session_id: 'rot' }, provider: 'claude', at: from + index * 10, precision: 'ms', channel: 'hook' })).join('\n')}\n`,
      );
    const hooks = promptHooks('Bash', { command: 'rm -rf dist' });
    // The request at the end of the rotated file, its own PreToolUse first in the live one.
    write('claude.jsonl.1', [{ hook_event_name: 'UserPromptSubmit', prompt_id: 'p1' }, hooks[1] ?? {}], 1000);
    write('claude.jsonl', [hooks[0] ?? {}], 2000);
    expect((await new HookSpool(folder, spoolReaders(['claude'])).sync()).get('claude:rot')?.last).toMatchObject({
      event: 'permission-request',
      detail: 'Bash: rm -rf dist',
      at: 1010,
    });
    // A turn's Stop written after the rotation, behind the next prompt's hooks.
    write(
      'claude.jsonl.1',
      [
        { hook_event_name: 'UserPromptSubmit', prompt_id: 'p1' },
        { ...hooks[0], hook_event_name: 'PostToolUse' },
      ],
      1000,
    );
    write(
      'claude.jsonl',
      [
        { hook_event_name: 'UserPromptSubmit', prompt_id: 'p2' },
        { hook_event_name: 'Stop', prompt_id: 'p1' },
      ],
      2000,
    );
    expect((await new HookSpool(folder, spoolReaders(['claude'])).sync()).get('claude:rot')?.last).toMatchObject({ event: 'mid-turn', at: 2000 });
  });

  it("R1 after a Stop, a new prompt or a stop hook's continuation (a new call) is work again", async () => {
    const at = (payloads: Record<string, unknown>[], id: string) =>
      payloads.map((payload, index) => ({ at: 1000 + index * 10, channel: 'hook' as const, payload: { ...payload, session_id: id } }));
    const stop = { hook_event_name: 'Stop', prompt_id: 'p1' };
    const next = await new HookSpool(
      spoolWith('claude', at([{ hook_event_name: 'UserPromptSubmit', prompt_id: 'p1' }, stop, { hook_event_name: 'UserPromptSubmit', prompt_id: 'p2' }], 'n')),
      spoolReaders(['claude']),
    ).sync();
    expect(next.get('claude:n')?.last).toMatchObject({ event: 'mid-turn', at: 1020 });
    const more = [
      { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 'toolu_1', prompt_id: 'p1' },
      { hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 'toolu_1', prompt_id: 'p1' },
      stop,
      { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'npm test' }, tool_use_id: 'toolu_2', prompt_id: 'p1' },
    ];
    const going = await new HookSpool(spoolWith('claude', at(more, 'c')), spoolReaders(['claude'])).sync();
    expect(going.get('claude:c')?.last).toMatchObject({ event: 'mid-turn', detail: 'Bash: npm test' });
    // A request after its turn's Stop is never dropped: on doubt, the prompt shows.
    const asking = await new HookSpool(
      spoolWith(
        'claude',
        at([...more.slice(0, 3), { hook_event_name: 'PermissionRequest', tool_name: 'Bash', tool_input: { command: 'npm test' }, prompt_id: 'p1' }], 'r'),
      ),
      spoolReaders(['claude']),
    ).sync();
    expect(asking.get('claude:r')?.last).toMatchObject({ event: 'permission-request', detail: 'Bash: npm test' });
  });

  it("case 4: Codex's notify for a thread with no rollout (its title thread) makes no row; a hook-only session still does", async () => {
    const folder = spoolWith('codex', [
      {
        at: 1000,
        channel: 'notify',
        payload: {
          type: 'agent-turn-complete',
          'thread-id': 'title-thread',
          client: 'codex-tui',
          'input-messages': ['Generate a concise, single-line task title'],
        },
      },
      { at: 2000, channel: 'hook', payload: { hook_event_name: 'PermissionRequest', session_id: 'fresh', tool_name: 'Bash', tool_input: { command: 'ls' } } },
    ]);
    const merged = mergeHooks([], await new HookSpool(folder, spoolReaders(['codex'])).sync(), () => 'codex.rollout');
    expect(merged.map((item) => item.sessionId)).toEqual(['fresh']);
  });
});

describe('who still writes a turn left open (issue 22, case 5)', () => {
  it('R7 /proc/locks is read by device and inode: a listed lock is held, another is free, no table tells nothing', () => {
    const root = mkdtempSync(join(scratch, 'codex-'));
    mkdirSync(join(root, 'thread-writer-locks'));
    const lock = join(root, 'thread-writer-locks', '01a23246-de42-7931-93a2-682f2583a8ee.lock');
    writeFileSync(lock, '');
    const { dev, ino } = statSync(lock);
    const major = Number((BigInt(dev) >> 8n) & 0xfffn)
      .toString(16)
      .padStart(2, '0');
    const minor = Number(BigInt(dev) & 0xffn)
      .toString(16)
      .padStart(2, '0');
    const table = join(scratch, 'locks');
    writeFileSync(table, `1: POSIX  ADVISORY  READ 25304 fe:00:99 128 128\n2: FLOCK  ADVISORY  WRITE 3772 ${major}:${minor}:${ino} 0 EOF\n`);
    expect(writerLock(root, '01a23246-de42-7931-93a2-682f2583a8ee', LockTable.read(table))).toBe('held');
    writeFileSync(table, '1: FLOCK  ADVISORY  WRITE 3772 fe:00:12 0 EOF\n');
    expect(writerLock(root, '01a23246-de42-7931-93a2-682f2583a8ee', LockTable.read(table))).toBe('free');
    expect(writerLock(root, '01a23246-de42-7931-93a2-682f2583a8ee', null)).toBe('unknown');
    expect(writerLock(root, 'no-such-thread-0000', LockTable.read(table))).toBe('unknown');
  });

  it.skipIf(process.platform !== 'linux')('R7 a database opened for writing by another process has a writer; opened only to read, it has none', async () => {
    const file = join(scratch, 'opencode.db');
    writeFileSync(file, '');
    for (const [flags, writers] of [
      ['r+', 1],
      ['r', 0],
    ] as const) {
      // A child holds the file open with these flags until told to stop.
      const holder = spawn(
        process.execPath,
        ['-e', `require('fs').openSync(${JSON.stringify(file)}, '${flags}'); process.stdout.write('open'); setInterval(() => {}, 1000)`],
        { stdio: ['ignore', 'pipe', 'ignore'] },
      );
      await new Promise<void>((resolve) => holder.stdout.once('data', () => resolve()));
      try {
        const held = procHolders(file, true) ?? [];
        expect(held.filter((pid) => pid === holder.pid)).toHaveLength(writers);
      } finally {
        holder.kill('SIGKILL');
      }
      await waitFor('the holder gone', () => (holder.exitCode !== null || holder.signalCode !== null ? true : undefined));
    }
    expect(procHolders(file, true)).toEqual([]);
  });

  it('R7 the writer check asks only of turns left open, ends them as of their last record, and keeps the same array while nothing changes', () => {
    const open = session({ id: 'open', signal: { kind: 'prompt', at: 1000 }, lastRecordAt: 1000 });
    const closed = session({ id: 'closed', signal: { kind: 'turn-end', at: 2000, failed: false, detail: null } });
    const base = [open, closed];
    const asked: string[] = [];
    const check = new WriterCheck('test.writer');
    const first = check.apply(base, (item) => {
      asked.push(item.sessionId);
      return true;
    });
    expect(asked).toEqual(['open']);
    expect(first[0]?.liveness).toEqual({ kind: 'dead', source: 'test.writer', pid: null, at: 1000, why: 'no-writer' });
    expect(first[1]).toBe(closed);
    expect(check.apply(base, () => true)).toBe(first);
    expect(check.apply(base, () => false)).toBe(base);
  });
});
