// Issue 51: a cold read's head costs reads, and each read a system call. A Codex rollout's first
// prompt comes after its instructions, 35–117 KB in (shared/real-samples, Codex 0.118–0.147): its
// head is one read when the prompt lies within 64 KB and two when past it, not one per 16 KB.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { CodexProvider } from '../../src/providers/codex/provider';

vi.mock('node:fs', async (original) => {
  const real = await original<typeof import('node:fs')>();
  return { ...real, readSync: vi.fn(real.readSync) };
});

const base = mkdtempSync(join(tmpdir(), 'lookout-head-reads-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const ID = '019e0000-0000-7000-8000-00000000a001';
const at = (second: number): string => new Date(Date.parse('2026-11-29T12:00:00.000Z') + second * 1000).toISOString();
const line = (value: unknown): string => `${JSON.stringify(value)}\n`;

/** A rollout shaped as Codex writes one: session_meta with its instructions, injected context of `injected` bytes, the prompt, then turns. */
function rollout(injected: number): string {
  const meta = line({
    timestamp: at(0),
    type: 'session_meta',
    payload: {
      id: ID,
      timestamp: at(0),
      cwd: '/home/me/app',
      originator: 'codex-tui',
      cli_version: '0.130.0',
      source: 'cli',
      base_instructions: { text: 'i'.repeat(22_000) },
    },
  });
  const context = line({
    timestamp: at(0),
    type: 'response_item',
    payload: { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'p'.repeat(injected) }] },
  });
  const prompt = line({ timestamp: at(1), type: 'event_msg', payload: { type: 'user_message', message: 'fix the flaky test', images: [] } });
  let turns = '';
  for (let turn = 0; turn < 200; turn += 1)
    turns += line({ timestamp: at(2 + turn), type: 'response_item', payload: { type: 'function_call_output', call_id: `c${turn}`, output: 'o'.repeat(1500) } });
  return meta + context + prompt + turns;
}

/** The reads a cold sync made below `below` bytes (the head's; the end's window lies past it). */
async function headReads(injected: number): Promise<{ reads: number; promptAt: number; title: string | null }> {
  const root = join(base, `codex-${injected}`);
  const folder = join(root, 'sessions', '2026', '11', '29');
  mkdirSync(folder, { recursive: true });
  const text = rollout(injected);
  writeFileSync(join(folder, `rollout-2026-11-29T12-00-00-${ID}.jsonl`), text);
  const readSync = vi.mocked(fs.readSync);
  readSync.mockClear();
  const [session] = await new CodexProvider(root).sync(Date.parse(at(300)));
  const below = text.length - 64 * 1024;
  // readSync(fd, buffer, offset, length, position): the position is the fifth argument.
  const position = (call: readonly unknown[]): unknown => call[4];
  const reads = readSync.mock.calls.filter((call) => {
    const from = position(call);
    return typeof from === 'number' && from < below;
  }).length;
  return { reads, promptAt: text.indexOf('"user_message"'), title: session?.title ?? null };
}

describe('a Codex head is read in one or two reads (issue 51)', () => {
  it('first prompt 57 KB in, as most real rollouts: one read, and the prompt names the session', async () => {
    const { reads, promptAt, title } = await headReads(35_000);
    expect(promptAt).toBeGreaterThan(50_000);
    expect(promptAt).toBeLessThan(64 * 1024);
    expect(title).toBe('fix the flaky test');
    expect(reads).toBe(1);
  });

  it('first prompt 117 KB in (a rollout with more instructions): two reads', async () => {
    const { reads, promptAt, title } = await headReads(95_000);
    expect(promptAt).toBeGreaterThan(110_000);
    expect(title).toBe('fix the flaky test');
    expect(reads).toBe(2);
  });
});
