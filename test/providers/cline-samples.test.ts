// The reader on files Cline CLI 3.0.65 itself wrote (shared/real-samples/generated/cline), read
// where they lie: each manifest's status (as the session table holds it) with its messages file.
// Where that folder is absent the tests skip, saying why.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { foldMessages } from '../../src/providers/cline/messages';
import { ClineHome, rowsOf } from './cline-home';

const SAMPLES = resolve(__dirname, '../../../shared/real-samples/generated/cline');
const present = existsSync(SAMPLES);
if (!present) console.log(`Cline CLI real-sample tests skipped: ${SAMPLES} is not here`);

const INTERACTIVE = '1796132159701_el9bw';
const homes: ClineHome[] = [];
afterAll(() => {
  for (const made of homes) {
    made.close();
    rmSync(join(made.root, '..'), { recursive: true, force: true });
  }
});

type Json = Record<string, unknown>;
const json = (path: string): Json => JSON.parse(readFileSync(path, 'utf8')) as Json;

/**
 * A data folder whose session table holds the sample's manifest, its messages read in place. The
 * manifest has no time of its last change: the messages' save time stands in (`later` ms after).
 */
function folderOf(sample: string, id: string, later = 0): { root: string; at: number } {
  const manifest = json(join(SAMPLES, sample, `${id}.json`));
  const messagesPath = join(SAMPLES, sample, `${id}.messages.json`);
  const at = Date.parse(String(json(messagesPath).updated_at)) + later;
  const made = new ClineHome();
  homes.push(made);
  made.session({
    id,
    pid: Number(manifest.pid),
    status: String(manifest.status),
    startedAt: Date.parse(String(manifest.started_at)),
    endedAt: typeof manifest.ended_at === 'string' ? Date.parse(manifest.ended_at) : null,
    exitCode: typeof manifest.exit_code === 'number' ? manifest.exit_code : null,
    updatedAt: at,
    prompt: String(manifest.prompt),
    metadata: manifest.metadata,
    messages: null,
    messagesPath,
  });
  return { root: made.root, at };
}

describe.skipIf(!present)('Cline CLI 3.0.65 real samples', () => {
  it('R8 "Cline needs permission" on screen (status pending, the call last in the messages) reads awaiting-approval, naming the command', async () => {
    const { root, at } = folderOf('awaiting-approval', INTERACTIVE);
    const [row] = await rowsOf(root, at + 30_000);
    expect([row?.observed.state, row?.observed.reason, row?.observed.confidence]).toEqual(['awaiting-approval', 'approval-requested', 'direct']);
    expect(row?.observed.detail).toBe('run_commands: touch cline-i.txt');
    expect(row?.title).toBe('do TOOL CMD[touch cline-i.txt] now');
  });

  it('R1 a held stream (status running, the messages still at the last turn) reads running', async () => {
    const { root, at } = folderOf('streaming', INTERACTIVE, 5_000);
    const [row] = await rowsOf(root, at + 10_000);
    expect([row?.observed.state, row?.observed.reason]).toEqual(['running', 'provider-busy']);
  });

  it('R8 after Escape (status idle, the prompt "SLOW wait" saved unanswered) reads idle/interrupted', async () => {
    const { root, at } = folderOf('after-esc', INTERACTIVE);
    const [row] = await rowsOf(root, at + 10_000);
    expect([row?.observed.state, row?.observed.reason]).toEqual(['idle', 'interrupted']);
  });

  it("R7 after Ctrl+C (still idle, ended_at null, its pid the hub's): ended once that process is gone", async () => {
    const { root, at } = folderOf('after-quit', INTERACTIVE);
    const [row] = await rowsOf(root, at + 10_000, () => 'no-process');
    expect([row?.observed.state, row?.observed.reason]).toEqual(['ended', 'process-gone']);
  });

  it.each([
    ['1796132142449_cw5az', 'say hi please'],
    ['1796132146649_u3owq', 'run TOOL CMD[touch cline-made.txt] now'],
  ])('R5 a completed headless run (%s) reads idle/turn-finished, titled by its prompt', async (id, title) => {
    const { root, at } = folderOf(join('headless', id), id);
    // Over by its own word: the pid that ran it is never asked.
    const [row] = await rowsOf(root, at + 10_000, () => 'no-process');
    expect([row?.observed.state, row?.observed.reason, row?.title]).toEqual(['idle', 'turn-finished', title]);
  });

  it('the messages fold: the prompt without its wrapper, the tool call and its result, the answer', () => {
    const facts = foldMessages(json(join(SAMPLES, 'headless', '1796132146649_u3owq', '1796132146649_u3owq.messages.json')));
    expect(facts.firstPrompt).toBe('run TOOL CMD[touch cline-made.txt] now');
    expect(facts.count).toBe(4);
    expect(facts.signal).toEqual({ kind: 'assistant-text', at: 1796132147423, stop: 'end' });
    expect(facts.turn).toEqual({ startedAt: 1796132147002, endedAt: 1796132147423, durationMs: null });
    expect(facts.answeredAt).toBe(1796132147338);
    const waiting = foldMessages(json(join(SAMPLES, 'awaiting-approval', `${INTERACTIVE}.messages.json`)));
    expect(waiting.signal).toMatchObject({
      kind: 'tool-call',
      pending: [{ id: 'call_48', name: 'run_commands', detail: 'run_commands: touch cline-i.txt', category: 'generic' }],
    });
  });
});
