// `lookout answer <session> allow|deny [--message <text>]`, `lookout answer <session> --option <n>…`,
// `lookout answer <session> terminal`: answers the session's pending prompt through the channel
// its agent offers, bound to the request the row shows now (R70–R75). Exit 0 answered, 1 refused
// with the reason, 2 usage.
import { parseArgs } from 'node:util';
import type { Row, RowAnswer } from '../../engine';
import { resolveNow } from '../cli/now-option';
import { UsageError } from '../cli/usage-error';
import { printError, printLines } from '../text/terminal-text';
import { evaluateFromDisk, findSession, remoteTarget, reportProblems } from './one-shot';
import { sendControl } from '../answer/control-client';
import type { Decision } from '../answer/protocol';
import type { CommandResult, FeedCommand } from '../../engine/contract';

const ACTIONS = ['allow', 'deny', 'terminal'] as const;
type Action = (typeof ACTIONS)[number];

/** `--option` values: one per question in order; "1,3" picks several where a question takes several. */
export function parseOptions(values: readonly string[]): number[][] {
  return values.map((value) => {
    if (!/^\d+(,\d+)*$/.test(value)) throw new UsageError(`--option takes an option's number, or several like 1,3 (got "${value}")`);
    return value.split(',').map(Number);
  });
}

/** The chosen labels, question by question; refused (exit 1) when a number is not an option. */
function answersFor(open: Extract<RowAnswer, { state: 'open' }>, picks: readonly number[][]): string[][] {
  if (picks.length !== open.questions.length)
    throw new Refused(`the prompt has ${open.questions.length} question(s): give one --option for each (${picks.length} given)`);
  return open.questions.map((question, index) =>
    (picks[index] ?? []).map((number) => {
      const option = question.options[number - 1];
      if (option === undefined) throw new Refused(`question ${index + 1} has options 1 to ${question.options.length} (got ${number})`);
      return option.label;
    }),
  );
}

class Refused extends Error {}

/** Why a row's prompt cannot be answered now, or the open request. */
function openOf(row: Row): Extract<RowAnswer, { state: 'open' }> {
  const answer = row.answer;
  if (answer === null) throw new Refused('nothing in this session is waiting for an answer');
  switch (answer.state) {
    case 'open':
      return answer;
    case 'answered':
      throw new Refused(`already answered from Lookout (${answer.answer ?? 'answered'}); waiting for the agent`);
    case 'elsewhere':
      throw new Refused('this prompt was answered in the terminal');
    case 'unavailable':
      throw new Refused(answer.why);
  }
}

function describe(open: Extract<RowAnswer, { state: 'open' }>, decision: Decision | null): string {
  if (decision === null) return 'let go: answer it in the terminal';
  switch (decision.behavior) {
    case 'allow':
      return `allowed ${open.tool}`;
    case 'deny':
      return `denied ${open.tool}${decision.message === null ? '' : ` — ${decision.message}`}`;
    case 'answers':
      return `answered ${decision.answers.map((labels) => labels.join(', ')).join('; ')}`;
  }
}

export async function answerCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { message: { type: 'string' }, option: { type: 'string', multiple: true }, now: { type: 'string' } },
    strict: true,
    allowPositionals: true,
  });
  const [query, action, ...extra] = positionals;
  if (query === undefined) throw new UsageError('answer needs a session (a key, an id, or 4+ characters of one)');
  const picks = parseOptions(values.option ?? []);
  if (action !== undefined && !(ACTIONS as readonly string[]).includes(action))
    throw new UsageError(`answer takes allow, deny or terminal, or --option <n>… (got "${action}")`);
  if (extra.length > 0) throw new UsageError(`answer takes a session and one answer (got "${extra.join(' ')}")`);
  if ((action === undefined) === (picks.length === 0) && !(action === 'deny' && picks.length === 0))
    throw new UsageError('answer takes allow, deny or terminal, or --option <n>… (one of them)');
  if (values.message !== undefined && action !== 'deny') throw new UsageError('--message goes with deny (the words the agent reads)');
  const now = resolveNow(values.now);
  const context = await evaluateFromDisk(now);
  const row = await findSession(context, query);
  try {
    const open = openOf(row);
    const chosen = action as Action | undefined;
    const decision: Decision | null =
      chosen === 'terminal'
        ? null
        : chosen === 'allow'
          ? { behavior: 'allow' }
          : chosen === 'deny'
            ? { behavior: 'deny', message: values.message ?? null }
            : { behavior: 'answers', answers: answersFor(open, picks) };
    if (decision?.behavior === 'allow' && open.prompt === 'question')
      throw new Refused('a question is answered with --option <n> (one per question), never a bare allow');
    const result =
      row.host !== null
        ? await remote(row, context, open, decision)
        : decision === null
          ? await sendControl(context.state.home, { type: 'release', request: open.request, from: 'cli' })
          : await sendControl(context.state.home, { type: 'answer', request: open.request, digest: open.digest, decision, from: 'cli', via: 'command' });
    if (!result.ok) throw new Refused(result.error ?? 'refused');
    printLines(process.stdout, [`${row.key}: ${describe(open, decision)}`]);
    return 0;
  } catch (error) {
    if (!(error instanceof Refused)) throw error;
    printError(`lookout answer: ${row.key}: ${error.message}`);
    return 1;
  }
}

/** Another machine's prompt: its own Lookout decides, where the hook waits. */
async function remote(
  row: Row,
  context: Awaited<ReturnType<typeof evaluateFromDisk>>,
  open: Extract<RowAnswer, { state: 'open' }>,
  decision: Decision | null,
): Promise<CommandResult> {
  const { host, key } = remoteTarget(row, context);
  const command: FeedCommand =
    decision === null ? { type: 'release', key, request: open.request } : { type: 'answer', key, request: open.request, digest: open.digest, decision };
  const { probeHost } = await import('../hosts/probe');
  const view = await probeHost(host, { env: process.env, clock: Date.now, onProblem: (line) => reportProblems([line]) }, command);
  if (view.status.kind !== 'connected') return { ok: false, error: `${host.name} cannot be reached; nothing was sent` };
  return view.answer === null
    ? { ok: true }
    : { ok: false, error: typeof view.answer === 'string' ? view.answer : `${host.name} did not say whether it answered` };
}
