// Pi answered from Lookout (issue 50): the real TUI with Lookout's extension and a person's
// extension that asks (Pi's own permission-gate example). Lookout's extension brings the gate's
// dialog to a running Lookout and answers it while Pi's own dialog stays up: the first answer wins.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { gateAsks, pi, piGated } from '../lab/agents/pi';
import { answerWhenDue, modelReceives } from '../lab/answering';
import type { LabRow } from '../lab/lookout';
import type { Scenario } from '../lab/scenario';
import { installed, scenarios, suiteName } from '../lab/suite';
import { waitFor } from '../../wait';

const gated = (file: string) => [
  { kind: 'tool' as const, call: pi.tools.guardedShell(`rm -rf scratch && touch ${file}`) },
  { kind: 'text' as const, text: 'Done with it.' },
];

/** The gate's dialog up, and the row answerable with its two options. */
async function asked(lab: Scenario): Promise<LabRow> {
  await lab.prompt('clean up');
  await lab.tmux.waitForScreen("the gate's dialog", gateAsks);
  const row = await lab.expectRow('answerable, with the options', (row) => row.answer?.state === 'open');
  // Direct: the extension's spool line, or the request it brought (whichever Lookout read first).
  expect(row.observed).toMatchObject({ state: 'awaiting-input', confidence: 'direct' });
  expect(row.observed.source).toMatch(/^pi\.(hook|answer)$/);
  expect(row.answer?.state === 'open' ? row.answer.prompt : null).toBe('question');
  expect(row.answer?.state === 'open' ? row.answer.text : '').toContain('rm -rf scratch');
  return row;
}

describe.skipIf(!installed(pi))(`${suiteName(pi)}: answering from Lookout`, () => {
  const start = scenarios(piGated);

  it("R70 the gate's dialog answered Yes with `lookout answer`: Pi's dialog closes and the command runs", async () => {
    const lab = await start({ name: 'answer-yes', hooks: true, watch: true, replies: gated('pi-yes.txt') });
    const row = await asked(lab);
    expect(await answerWhenDue(lab, row, '--option', '1')).toContain('answered Yes');
    await waitFor(
      'the allowed command ran',
      () => (existsSync(lab.projectFile('pi-yes.txt')) ? true : undefined),
      () => lab.tmux.screen(),
    );
    expect(gateAsks(lab.tmux.screen())).toBe(false);
    const done = await lab.expectRow('finished', (row) => row.observed.state === 'idle' && row.observed.reason === 'turn-finished');
    expect(lab.explain(done)).toMatch(/answered Yes from cli/);
  });

  it('R71 answered No from Lookout: the gate blocks the call, the command does not run and the model reads why', async () => {
    const lab = await start({ name: 'answer-no', hooks: true, watch: true, replies: gated('pi-no.txt') });
    const row = await asked(lab);
    await answerWhenDue(lab, row, '--option', '2');
    await modelReceives(lab, 'Blocked by user');
    expect(existsSync(lab.projectFile('pi-no.txt'))).toBe(false);
    await lab.expectRow('finished', (row) => row.observed.state === 'idle');
  });

  it("R73 answered in Pi's own dialog first: Lookout lets its request go, and a late answer is refused", async () => {
    const lab = await start({ name: 'answer-terminal', hooks: true, watch: true, replies: gated('pi-by-hand.txt') });
    const row = await asked(lab);
    lab.tmux.keys('Enter');
    await waitFor(
      'the command ran',
      () => (existsSync(lab.projectFile('pi-by-hand.txt')) ? true : undefined),
      () => lab.tmux.screen(),
    );
    await lab.expectRow('finished', (row) => row.observed.state === 'idle' && row.observed.reason === 'turn-finished');
    expect(lab.answer(row, '--option', '1').code).toBe(1);
  });
});
