// How the status table is laid out for the stream it goes to: kept apart from the table itself, so
// `status` can say it to a running Lookout (issue 51) without loading the formatting.

export interface TableLayout {
  width: number | null;
  color: boolean;
}

/** Everything, no colour: a pipe, a file, `--wide`. */
export const WIDE: TableLayout = { width: null, color: false };

/** Narrower than this, the table is laid out for this many columns anyway (lines wrap). */
const MIN_WIDTH = 40;

/**
 * The layout for a stream: `--wide` prints everything; else the width `COLUMNS` gives, else the
 * terminal's, else (a pipe) everything. Colour only on a terminal, and never with `NO_COLOR`.
 */
export function tableLayout(stream: { isTTY?: boolean; columns?: number }, env: NodeJS.ProcessEnv, wide: boolean): TableLayout {
  const color = stream.isTTY === true && (env.NO_COLOR ?? '') === '';
  if (wide) return { width: null, color };
  const columns = Number(env.COLUMNS);
  if (Number.isInteger(columns) && columns > 0) return { width: Math.max(MIN_WIDTH, columns), color };
  if (stream.isTTY === true && typeof stream.columns === 'number' && stream.columns > 0) return { width: Math.max(MIN_WIDTH, stream.columns), color };
  return { width: null, color };
}
