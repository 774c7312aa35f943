// What `lookout status` prints, for both who print it: the command itself reading the files, and
// the running Lookout answering for it (issue 51). The same code, so the same bytes either way.
import type { Snapshot } from '../../engine';
import { jsonLineBytes } from '../text/terminal-text';
import { formatStatus } from './format-status';
import { lineParts } from './snapshot-json';
import type { TableLayout } from './table-layout';

/** What a status asks for: historical rows too (`--all`), JSON (`--json`), else a table laid out so. */
export interface StatusAsk {
  all: boolean;
  json: boolean;
  layout: TableLayout;
}

/** The bytes `lookout status` prints for `snapshot`, read from `from`, at `now`, in parts to write one after another. */
export function statusOutput(snapshot: Snapshot, from: 'running' | 'files', ask: StatusAsk, now: number): Buffer[] {
  const shown = ask.all ? snapshot : { ...snapshot, sessions: snapshot.sessions.filter((row) => !row.historical) };
  // The running Lookout keeps each row's JSON with the row (asked again, it encodes only what
  // changed, and sends the rows' bytes as they are kept); a one-shot read encodes its rows in one go.
  if (ask.json) return from === 'running' ? lineParts({ ...shown, from }) : [jsonLineBytes({ ...shown, from })];
  // Each line made safe piece by piece already (the marks may carry colour).
  return [
    Buffer.from(
      formatStatus(shown, now, ask.layout)
        .map((line) => `${line}\n`)
        .join(''),
    ),
  ];
}
