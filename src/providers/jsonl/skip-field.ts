// Cuts one large field out of a JSON line before it is parsed. Codex's session_meta embeds the
// whole base instructions (20–45 KB) that Lookout never reads; skipping them halves cold reads.

/** Index just past the JSON string that starts at `start` (a quote), or -1. */
function endOfString(text: string, start: number): number {
  let at = start + 1;
  for (;;) {
    const quote = text.indexOf('"', at);
    if (quote === -1) return -1;
    let slashes = 0;
    for (let back = quote - 1; text.charCodeAt(back) === 0x5c; back -= 1) slashes += 1;
    if (slashes % 2 === 0) return quote + 1;
    at = quote + 1;
  }
}

/** Index just past the JSON value that starts at `start`, or -1 when it cannot be told. */
function endOfValue(text: string, start: number): number {
  const first = text[start];
  if (first === '"') return endOfString(text, start);
  if (first !== '{' && first !== '[') return -1;
  let depth = 0;
  for (let at = start; at < text.length; at += 1) {
    const char = text[at];
    if (char === '"') {
      const end = endOfString(text, at);
      if (end === -1) return -1;
      at = end - 1;
    } else if (char === '{' || char === '[') depth += 1;
    else if (char === '}' || char === ']') {
      depth -= 1;
      if (depth === 0) return at + 1;
    }
  }
  return -1;
}

/** The line with `"key": <value>` replaced by `"key": null`; unchanged when not found. */
export function withoutField(line: string, key: string): string {
  const marker = `"${key}":`;
  const at = line.indexOf(marker);
  if (at === -1) return line;
  let start = at + marker.length;
  while (line[start] === ' ') start += 1;
  const end = endOfValue(line, start);
  return end === -1 ? line : `${line.slice(0, start)}null${line.slice(end)}`;
}
