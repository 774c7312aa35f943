// Answering from Lookout in the lab (issue 23): `lookout answer` as a person types it, retried only
// while R72's grace refuses it (a command answers a prompt a few beats after it appeared), and the
// model's view of what came back.
import { readFileSync } from 'node:fs';
import type { LabRow } from './lookout';
import type { Scenario } from './scenario';
import { waitFor } from '../../wait';

/** R72: a command within the grace is refused with these words; any other refusal fails the test. */
const GRACE = /a key or command answers it after/;

/** `lookout answer <row> …` once the grace allows it; returns its stdout. */
export async function answerWhenDue(lab: Scenario, row: LabRow, ...args: string[]): Promise<string> {
  const outcome = await waitFor(`lookout answer ${args.join(' ')} taken`, () => {
    const result = lab.answer(row, ...args);
    if (result.code === 0) return { ok: true as const, text: result.stdout };
    if (result.code === 1 && GRACE.test(result.stderr)) return undefined;
    return { ok: false as const, text: `exit ${String(result.code)}: ${result.stderr}${result.stdout}` };
  });
  if (!outcome.ok) throw new Error(`lookout answer refused: ${outcome.text}`);
  return outcome.text;
}

/** Every main request's body as text, newest last: what the agent sent the model. */
export function sentToModel(lab: Scenario): string[] {
  return lab.model.mainRequests.map((request) => JSON.stringify(request.body));
}

/** Waits until the agent sends the model a request holding `text` (a tool result, an answer). */
export async function modelReceives(lab: Scenario, text: string): Promise<void> {
  await waitFor(
    `the model receives "${text}"`,
    () => (sentToModel(lab).some((body) => body.includes(text)) ? true : undefined),
    () => lab.tmux.screen(),
  );
}

/** The lab's processes still running the answering hook of this agent (a hook Lookout should have let go). */
export function waitingHooks(lab: Scenario, entry: string): number[] {
  return lab.processes().filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0').includes(entry);
    } catch {
      return false;
    }
  });
}
