// A snapshot as one JSON line, each row's text kept with the row (issue 27): the engine hands back
// the very same row object while its derivation holds, so a change to one row of 2,000 writes one
// row's JSON afresh, not 1.2 MB. The line is exactly jsonLine(snapshot).
import { jsonLine } from './terminal-text';

const rowText = new WeakMap<object, string>();
/** Stands for the rows in the snapshot's frame; its JSON cannot occur anywhere else in that frame but once. */
const ROWS = '\u2063lookout-rows\u2063';
const MARK = JSON.stringify(ROWS);

function textOf(row: object): string {
  let text = rowText.get(row);
  if (text === undefined) {
    text = jsonLine(row);
    rowText.set(row, text);
  }
  return text;
}

export function snapshotJsonLine<S extends { sessions: readonly object[] }>(snapshot: S): string {
  const frame = jsonLine({ ...snapshot, sessions: [ROWS] });
  const at = frame.indexOf(MARK);
  // Another field carrying the same text (never written by Lookout): the plain way, exact either way.
  if (at === -1 || frame.indexOf(MARK, at + 1) !== -1) return jsonLine(snapshot);
  return `${frame.slice(0, at)}${snapshot.sessions.map(textOf).join(',')}${frame.slice(at + MARK.length)}`;
}
