// Commands that record a user fact: review, mute, unmute, visit, attention (cli.md).
import { parseArgs } from 'node:util';
import type { Row } from '../../engine';
import { REVIEW_STATES, isOneOf, iso, parseDuration } from '../../engine';
import { resolveNow } from '../cli/now-option';
import { UsageError } from '../cli/usage-error';
import { printLines } from '../text/terminal-text';
import type { CommandEvaluation } from './one-shot';
import { evaluateFromDisk, findSession, remoteTarget, reportProblems } from './one-shot';
import { probeHost } from '../hosts/probe';
import type { FeedCommand } from '../../engine/contract';

const reportProblem = (line: string): void => reportProblems([line]);

interface Parsed {
  now: number;
  positionals: string[];
  values: Record<string, string | boolean | undefined>;
}

function parse(args: string[], extra: Record<string, { type: 'string' | 'boolean' }> = {}): Parsed {
  const { values, positionals } = parseArgs({ args, options: { now: { type: 'string' }, ...extra }, strict: true, allowPositionals: true });
  return { now: resolveNow(typeof values.now === 'string' ? values.now : undefined), positionals, values };
}

async function target(query: string | undefined, command: string, now: number): Promise<{ row: Row; context: CommandEvaluation }> {
  if (query === undefined) throw new UsageError(`${command} needs a session (a key, an id, or 4+ characters of one)`);
  const context = await evaluateFromDisk(now);
  return { row: await findSession(context, query), context };
}

/**
 * A fact for a session on another machine is recorded there, by its own Lookout (where its facts
 * live); says whether the row was a remote one. Fails (exit 1) when the host does not take it.
 */
async function remote(row: Row, context: CommandEvaluation, command: FeedCommand, done: string): Promise<boolean> {
  if (row.host === null) return false;
  const { host, key } = remoteTarget(row, context);
  const view = await probeHost(host, { env: process.env, clock: Date.now, onProblem: reportProblem }, { ...command, key });
  if (view.status.kind !== 'connected' || view.answer !== null) {
    const why =
      view.status.kind === 'unreachable' || view.status.kind === 'failed' ? view.status.reason : typeof view.answer === 'string' ? view.answer : 'no answer';
    throw new Error(`${host.name} did not take it (${why}); nothing was recorded`);
  }
  printLines(process.stdout, [`${row.key}: ${done}`]);
  return true;
}

export async function reviewCommand(args: string[]): Promise<number> {
  const { now, positionals } = parse(args);
  const [query, state, ...extra] = positionals;
  if (state === undefined || !isOneOf(REVIEW_STATES, state))
    throw new UsageError(`review needs a state: ${REVIEW_STATES.join(', ')}${state === undefined ? '' : ` (got "${state}")`}`);
  if (extra.length > 0) throw new UsageError(`review takes a session and a state, got ${positionals.length} arguments`);
  const { row, context } = await target(query, 'review', now);
  if (await remote(row, context, { type: 'review', key: row.key, state }, `review ${state}`)) return 0;
  context.writer.review(row.key, state, row.lastActivityAt, now);
  printLines(process.stdout, [`${row.key}: review ${state}`]);
  return 0;
}

export async function muteCommand(args: string[]): Promise<number> {
  const { now, positionals, values } = parse(args, { for: { type: 'string' } });
  const span = typeof values.for === 'string' ? parseDuration(values.for) : null;
  if (typeof values.for === 'string' && span === null) throw new UsageError(`--for takes a duration like 30m, 2h or 1d (got "${values.for}")`);
  if (positionals.length > 1) throw new UsageError(`mute takes one session, got ${positionals.length}`);
  const { row, context } = await target(positionals[0], 'mute', now);
  const until = span === null ? null : now + span;
  if (
    await remote(
      row,
      context,
      { type: 'mute', key: row.key, until: until === null ? null : iso(until) },
      `muted${until === null ? '' : ` until ${iso(until)}`}`,
    )
  )
    return 0;
  context.writer.mute(row.key, until, now);
  printLines(process.stdout, [`${row.key}: muted${until === null ? '' : ` until ${iso(until)}`}`]);
  return 0;
}

export async function unmuteCommand(args: string[]): Promise<number> {
  const { now, positionals } = parse(args);
  if (positionals.length > 1) throw new UsageError(`unmute takes one session, got ${positionals.length}`);
  const { row, context } = await target(positionals[0], 'unmute', now);
  if (await remote(row, context, { type: 'unmute', key: row.key }, 'unmuted')) return 0;
  context.writer.unmute(row.key, now);
  printLines(process.stdout, [`${row.key}: unmuted`]);
  return 0;
}

export async function visitCommand(args: string[]): Promise<number> {
  const { now, positionals } = parse(args);
  if (positionals.length > 1) throw new UsageError(`visit takes one session, got ${positionals.length}`);
  const { row, context } = await target(positionals[0], 'visit', now);
  if (await remote(row, context, { type: 'visit', key: row.key }, 'visited')) return 0;
  await context.writer.visit(row.key, row.cwd, now);
  printLines(process.stdout, [`${row.key}: visited`]);
  return 0;
}

export async function attentionCommand(args: string[]): Promise<number> {
  const { now, positionals } = parse(args);
  const [query, ...words] = positionals;
  const { row, context } = await target(query, 'attention', now);
  const message = words.length === 0 ? null : words.join(' ');
  if (await remote(row, context, { type: 'attention', key: row.key, message }, `needs you${message === null ? '' : ` — ${message}`}`)) return 0;
  context.writer.attention(row.key, message, now);
  printLines(process.stdout, [`${row.key}: needs you${message === null ? '' : ` — ${message}`}`]);
  return 0;
}
