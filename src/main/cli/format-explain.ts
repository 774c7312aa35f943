// `lookout explain`: the evidence behind one row, and which rule decided.
import type { DerivedSession, Row } from '../../engine';
import type { StoreFile } from '../store/schema';

/** The audit's entries (R75), as the store keeps them. */
export type AnswerEntry = NonNullable<StoreFile['answers']>[number];
import { iso } from '../../engine';

const when = (ms: number): string => (Number.isFinite(ms) ? iso(ms) : 'unknown time');

/** The explanation, line by line; printed through terminal-text.ts. */
export function formatExplain(row: Row, derived: DerivedSession, answers: readonly AnswerEntry[] = []): string[] {
  const lines = [
    `${row.key}  ${row.title ?? ''}`.trimEnd(),
    `  folder   ${row.cwd ?? 'unknown'}${row.branch === null ? '' : ` (${row.branch})`}`,
    `  state    ${row.observed.state} / ${row.observed.reason} (${row.observed.confidence}, ${row.observed.source}, ${row.observed.at ?? 'unknown time'})`,
    `  decided  ${derived.observed.rule}`,
    `  workflow ${row.workflow}; review ${row.review.state}${row.review.by === null ? '' : ` by ${row.review.by}`}; band ${row.band} (rank ${row.triageRank})`,
    `  claim    ${row.claim === null ? 'none' : `${row.claim.kind}${row.claim.ambiguous ? ' (ambiguous)' : ''} since ${row.claim.since}${row.claim.detail === null ? '' : ` — ${row.claim.detail}`}`}`,
    'Evidence considered, in the order weighed:',
  ];
  // R80: where the reset came from is the agent's record; without one no time is guessed.
  if (row.observed.state === 'limited') lines.splice(6, 0, `  limit    ${row.resetsAt === null ? 'the agent gave no reset time' : `resets ${row.resetsAt}`}`);
  for (const observation of derived.considered) {
    lines.push(
      `  ${when(observation.at)}  ${observation.source}  ${observation.state}/${observation.reason}  ${observation.confidence}  — ${observation.rule}`,
    );
  }
  if (derived.considered.length === 0) lines.push('  none: no status-bearing record was found');
  lines.push(`Children: ${row.children.liveness} (${row.children.live} live)`);
  for (const child of derived.children)
    lines.push(`  ${child.name}: ${child.state}${child.request === null ? '' : ` — ${child.request.detail}`} (${when(child.at)})`);
  const liveness = derived.evidence.liveness;
  lines.push(
    `Liveness: ${liveness.kind}${'pid' in liveness && liveness.pid !== null ? ` (pid ${liveness.pid})` : ''}${liveness.kind === 'dead' ? ` — ${liveness.why}` : ''}`,
  );
  lines.push(`Skipped lines (malformed or oversized): ${derived.evidence.skippedLines}`);
  const ahead = (derived.input.lastRecordAt ?? 0) - (derived.evidence.lastRecordAt ?? 0);
  // Times after now (a clock ahead of this machine's): held where they were first seen (issue 24).
  if (ahead > 0)
    lines.push(
      `Clock ahead: its newest record is dated ${Math.round(ahead / 1000)} s past this machine's clock; its times are held at ${when(derived.input.seenAt ?? Number.NaN)}, when Lookout first read it`,
    );
  lines.push(`Answering: ${answeringLine(row)}`);
  const mine = answers.filter((entry) => entry.key === row.key);
  if (mine.length > 0) lines.push('Answers (R75), oldest first:');
  for (const entry of mine) lines.push(`  ${entry.at}  ${auditLine(entry)}`);
  return lines;
}

export function answeringLine(row: Pick<Row, 'answer'>): string {
  const answer = row.answer;
  if (answer === null) return 'nothing waits for an answer';
  switch (answer.state) {
    case 'open':
      if (answer.hidden > 0)
        return `${answer.request} waits since ${answer.since} (${answer.prompt}, ${answer.tool}): too long to show whole (${String(answer.hidden)} characters not shown), so answered only in the terminal`;
      return `${answer.request} waits for an answer from Lookout since ${answer.since} (${answer.prompt}, ${answer.tool}; keys from ${answer.keysFrom}${answer.serial ? `; the agent's own prompt waits until ${answer.deadline}` : ''})`;
    case 'answered':
      return `${answer.request} answered from Lookout at ${answer.at} (${answer.answer ?? 'answered'}${answer.from === null ? '' : `, from ${answer.from}`}); waiting for the agent`;
    case 'elsewhere':
      return `${answer.request} was answered in the terminal (seen at ${answer.at})`;
    case 'unavailable':
      return answer.why;
  }
}

export function auditLine(entry: AnswerEntry): string {
  const shown = entry.shown.split('\n')[0] ?? '';
  const hidden = entry.hidden === undefined || entry.hidden === 0 ? '' : `; ${String(entry.hidden)} more characters not kept`;
  const through = entry.channel === undefined ? '' : `; through ${entry.channel}`;
  const what = `${entry.request} (${entry.tool}: ${shown.length > 80 ? `${shown.slice(0, 79)}…` : shown}; asked ${entry.requestAt}${hidden}${through})`;
  switch (entry.answer) {
    case 'allow':
      return `allowed from ${entry.from ?? '?'} — ${what}`;
    case 'deny':
      return `denied from ${entry.from ?? '?'}${entry.message === null ? '' : ` ("${entry.message}")`} — ${what}`;
    case 'options':
      return `answered ${entry.options.join('; ')} from ${entry.from ?? '?'} — ${what}`;
    case 'released':
      return `let go to the terminal ${entry.from === null ? 'as Lookout stopped' : `from ${entry.from}`} — ${what}`;
    case 'elsewhere':
      return `answered ${entry.from === 'agent' ? 'elsewhere (the agent said so)' : 'in the terminal'} — ${what}`;
    case 'expired':
      return `not answered in time; the agent's own prompt decided — ${what}`;
  }
}
