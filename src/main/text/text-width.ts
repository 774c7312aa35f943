// How many terminal columns text takes, and text cut to a number of columns with an ellipsis at
// its end: wide (East Asian, emoji) characters take two, combining marks none. An approximation
// of wcwidth, enough to keep a table's columns where they belong.

function columnsOf(code: number): number {
  if ((code >= 0x0300 && code <= 0x036f) || (code >= 0x200b && code <= 0x200f) || code === 0xfe0f) return 0;
  if (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1faff) ||
    (code >= 0x20000 && code <= 0x3fffd)
  ) {
    return 2;
  }
  return 1;
}

export function textWidth(text: string): number {
  let width = 0;
  for (const char of text) width += columnsOf(char.codePointAt(0) ?? 0);
  return width;
}

/** `text` in at most `width` columns: cut with "…" at the end when longer. */
export function cut(text: string, width: number): string {
  if (width <= 0) return '';
  if (textWidth(text) <= width) return text;
  let out = '';
  let used = 0;
  for (const char of text) {
    const columns = columnsOf(char.codePointAt(0) ?? 0);
    if (used + columns > width - 1) break;
    out += char;
    used += columns;
  }
  return `${out}…`;
}

/** `text` cut to `width` columns, then padded with spaces to exactly that many. */
export function fit(text: string, width: number): string {
  const cutText = cut(text, width);
  return cutText + ' '.repeat(Math.max(0, width - textWidth(cutText)));
}
