// Issue 50: Lookout's Pi extension, bundled from TypeScript (src/providers/pi/extension-source/)
// into the text `hooks install` writes. Loaded here as Pi loads it, given a stand-in of Pi's API
// and of its shared dialog object (Pi's own dialogs resolve on an answer, or undefined on their
// signal's abort), against a real answer channel.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runFolder } from '../../src/main/answer/paths';
import { extensionText, readPiEvent } from '../../src/providers/pi/extension';
import { EXTENSION_GENERATED, bundleExtension, extensionModule } from '../../scripts/plugin-bundle.mjs';
import type { Lab } from './answer-owner';
import { openRequest, owner } from './answer-owner';
import { waitFor } from '../wait';

type Handler = (event: unknown, ctx: unknown) => unknown;

/** Pi's own dialog, as its interactive mode runs one: the person's pick, or undefined once its signal aborts. */
class PiDialog {
  answer: (value: unknown) => void = () => undefined;
  aborted = false;
  calls: unknown[][] = [];
  readonly open = (...args: unknown[]): Promise<unknown> => {
    this.calls.push(args);
    const signal = (args[2] as { signal?: AbortSignal } | undefined)?.signal;
    return new Promise((resolve) => {
      this.answer = resolve;
      signal?.addEventListener('abort', () => {
        this.aborted = true;
        resolve(undefined);
      });
    });
  };
}

interface Pi {
  ui: { select: (...args: unknown[]) => Promise<unknown>; confirm: (...args: unknown[]) => Promise<unknown> };
  select: PiDialog;
  confirm: PiDialog;
  emit(event: string, payload: unknown): void;
  spool(): Record<string, unknown>[];
}

/** The extension as `hooks install` writes it, loaded and started on a session. */
async function started(lab: Lab, sessionId = '01a244aa-0000-7000-8000-000000000001'): Promise<Pi> {
  const file = join(lab.home, 'lookout.mjs');
  writeFileSync(file, extensionText(join(lab.home, 'spool'), runFolder(lab.home)));
  const module = (await import(`${pathToFileURL(file).href}?${Math.random()}`)) as { default: (api: unknown) => void };
  const handlers = new Map<string, Handler[]>();
  module.default({ on: (event: string, handler: Handler) => handlers.set(event, [...(handlers.get(event) ?? []), handler]) });
  const select = new PiDialog();
  const confirm = new PiDialog();
  const ui = { select: select.open, confirm: confirm.open };
  const ctx = { hasUI: true, ui, cwd: '/home/me/app', sessionManager: { getSessionId: () => sessionId } };
  const emit = (event: string, payload: unknown) => {
    for (const handler of handlers.get(event) ?? []) handler(payload, ctx);
  };
  emit('session_start', { type: 'session_start', reason: 'startup' });
  const spool = () =>
    readFileSync(join(lab.home, 'spool', 'pi.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { payload: Record<string, unknown> }).payload);
  return { ui, select, confirm, emit, spool };
}

describe("Lookout's Pi extension (issue 50)", () => {
  it('the generated extension module is its source as the build bundles it (npm run build regenerates it)', async () => {
    expect(readFileSync(EXTENSION_GENERATED, 'utf8'), `${EXTENSION_GENERATED} is not its source bundled: run npm run build`).toBe(
      extensionModule(await bundleExtension()),
    );
  });

  it("R70 a person's extension's select (Pi's permission-gate) is brought to Lookout with its options and the call in flight; answered from Lookout, Pi's dialog closes and the extension gets the label", async () => {
    const lab = await owner();
    const pi = await started(lab);
    pi.emit('tool_execution_start', { type: 'tool_execution_start', toolCallId: 'call_1', toolName: 'bash', args: { command: 'rm -rf scratch' } });
    const title = '⚠️ Dangerous command:\n\n  rm -rf scratch\n\nAllow?';
    const picked = pi.ui.select(title, ['Yes', 'No']);
    const held = await openRequest(lab);
    expect(held.draft).toMatchObject({
      provider: 'pi',
      sessionId: '01a244aa-0000-7000-8000-000000000001',
      prompt: 'question',
      tool: 'bash',
      text: title,
      hidden: 0,
      questions: [
        {
          question: title,
          header: null,
          multiple: false,
          options: [
            { label: 'Yes', description: null },
            { label: 'No', description: null },
          ],
        },
      ],
    });
    expect(pi.select.calls).toHaveLength(1);
    expect(
      lab.broker.answer({
        request: held.request.id,
        digest: held.request.digest,
        decision: { behavior: 'answers', answers: [['Yes']] },
        from: 'popover',
        via: 'click',
      }),
    ).toEqual({ type: 'result', ok: true });
    expect(await picked).toBe('Yes');
    expect(pi.select.aborted).toBe(true);
    expect(pi.spool().map((line) => [line.type, line.by ?? null])).toEqual([
      ['dialog.open', null],
      ['dialog.closed', 'lookout'],
    ]);
    expect(readPiEvent(pi.spool()[0] ?? {})).toMatchObject({
      sessionId: '01a244aa-0000-7000-8000-000000000001',
      cwd: '/home/me/app',
      fact: { kind: 'event', event: 'input-request' },
    });
  });

  it("R73 answered in Pi's own dialog first: the extension gets that answer and Lookout lets its request go as answered elsewhere", async () => {
    const lab = await owner();
    const pi = await started(lab);
    const picked = pi.ui.select('Allow?', ['Yes', 'No']);
    await openRequest(lab);
    pi.select.answer('No');
    expect(await picked).toBe('No');
    await waitFor('the request let go', () => lab.records[0]);
    expect(lab.records[0]).toMatchObject({ answer: 'elsewhere' });
    expect(pi.spool().at(-1)).toMatchObject({ type: 'dialog.closed', by: 'pi' });
    expect(readPiEvent(pi.spool().at(-1) ?? {}).fact).toMatchObject({ event: 'settled' });
  });

  it('R71 a confirm is an approval: allowed from Lookout it gives true, denied false', async () => {
    const lab = await owner();
    const pi = await started(lab);
    const allowed = pi.ui.confirm('Push to main?', 'git push origin main');
    const first = await openRequest(lab);
    expect(first.draft).toMatchObject({ prompt: 'approval', tool: 'dialog', text: 'Push to main?\n\ngit push origin main', questions: [] });
    lab.broker.answer({ request: first.request.id, digest: first.request.digest, decision: { behavior: 'allow' }, from: 'cli', via: 'click' });
    expect(await allowed).toBe(true);
    const denied = pi.ui.confirm('Push to main?', 'git push origin main');
    const second = await waitFor('the second request', () =>
      lab.broker.requests.find((item) => item.request.closed === null && item.request.id !== first.request.id),
    );
    lab.broker.answer({ request: second.request.id, digest: second.request.digest, decision: { behavior: 'deny', message: null }, from: 'cli', via: 'click' });
    expect(await denied).toBe(false);
    expect(readPiEvent({ type: 'dialog.open', kind: 'confirm', title: 'Push to main?', tool: 'bash', sessionId: 's' }).fact).toEqual({
      kind: 'event',
      event: 'permission-request',
      detail: 'bash: Push to main?',
    });
  });

  it("a dialog Lookout cannot show whole (too many options) is told to the spool but left to Pi's dialog alone; a label Lookout never offered is not taken", async () => {
    const lab = await owner();
    const pi = await started(lab);
    const many = pi.ui.select(
      'Pick one',
      Array.from({ length: 12 }, (_, index) => `Option ${index}`),
    );
    await waitFor('told to the spool', () => pi.spool().find((line) => line.type === 'dialog.open'));
    expect(lab.broker.requests).toEqual([]);
    pi.select.answer('Option 3');
    expect(await many).toBe('Option 3');
  });

  it("with no Lookout running, the dialog is Pi's alone and its answer comes through unchanged", async () => {
    const lab = await owner();
    const pi = await started(lab);
    const { rmSync } = await import('node:fs');
    rmSync(join(runFolder(lab.home), 'answer.token'));
    const picked = pi.ui.select('Allow?', ['Yes', 'No']);
    pi.select.answer('Yes');
    expect(await picked).toBe('Yes');
    expect(pi.select.aborted).toBe(false);
    expect(lab.broker.requests).toEqual([]);
  });
});
