// `lookout open <session> [--print]`: R50, and a visit recorded (the user is looking at it).
import { parseArgs } from 'node:util';
import { resolveNow } from '../cli/now-option';
import { looksLive, planOpen } from '../open/plan';
import { systemProbes } from '../open/probes';
import { openedLine, runPlan } from '../open/run';
import { UsageError } from '../cli/usage-error';
import { jsonLine, printLines } from '../text/terminal-text';
import type { CommandEvaluation } from './one-shot';
import { evaluateFromDisk, findSession, remoteTarget, reportProblems } from './one-shot';
import type { Row } from '../../engine';
import { planRemoteOpen } from '../open/remote-plan';
import { probeHost } from '../hosts/probe';
import { findProvider } from '../../providers';
import { openTarget } from '../open/session-process';

export async function openCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: { now: { type: 'string' }, print: { type: 'boolean' } }, strict: true, allowPositionals: true });
  const [query, ...extra] = positionals;
  if (query === undefined) throw new UsageError('open needs a session (a key, an id, or 4+ characters of one)');
  if (extra.length > 0) throw new UsageError(`open takes one session, got ${positionals.length}`);
  const now = resolveNow(values.now);
  const context = await evaluateFromDisk(now);
  return openRow(await findSession(context, query), context, values.print === true, now);
}

/** Opens a row (R50): its own terminal focused where one holds it, else as planOpen says; the visit recorded. */
export async function openRow(row: Row, context: CommandEvaluation, print: boolean, now: number): Promise<number> {
  if (row.host !== null) return openRemote(row, context, print);
  const evidence = context.evaluation.derived.get(row.key)?.evidence;
  const target =
    evidence === undefined
      ? {
          provider: row.provider,
          sessionId: row.sessionId,
          cwd: row.cwd,
          pid: null,
          resume: findProvider(row.provider)?.resume(row.sessionId) ?? [],
          live: looksLive(row.observed.state, false),
        }
      : openTarget(evidence, row.observed.state, context.state.roots);
  const plan = planOpen(target, context.state.settings.openCommand, systemProbes());
  if (print) {
    process.stdout.write(`${jsonLine(plan)}\n`);
    return 0;
  }
  await runPlan(plan, context.state.home);
  await context.writer.visit(row.key, row.cwd, now);
  printLines(process.stdout, [openedLine(row.key, plan)]);
  return 0;
}

/** A session on another machine: a terminal here running ssh into its folder there; the visit recorded there. */
async function openRemote(row: Row, context: CommandEvaluation, print: boolean): Promise<number> {
  const { host, key: inner } = remoteTarget(row, context);
  // Its own machine's Lookout finds the pane, folder and resume command there (`open-here`).
  const plan = planRemoteOpen({ host, key: inner, cwd: row.cwd }, process.env, systemProbes());
  if (print) {
    process.stdout.write(`${jsonLine(plan)}\n`);
    return 0;
  }
  await runPlan(plan, context.state.home);
  await probeHost(host, { env: process.env, clock: Date.now, onProblem: (line) => reportProblems([line]) }, { type: 'visit', key: inner });
  printLines(process.stdout, [`${row.key}: opened (${plan.kind}, on ${host.name})`]);
  return 0;
}
