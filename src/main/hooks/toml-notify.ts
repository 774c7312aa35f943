// Codex's `notify` program in config.toml: added as one top-level line when the user has none,
// removed as exactly that line. No TOML is rewritten.

/** A top-level `notify` key: one before the first [table]. */
export function hasNotify(text: string): boolean {
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed.startsWith('[')) return false;
    if (/^notify\s*=/.test(trimmed)) return true;
  }
  return false;
}

/** TOML basic strings: backslash and quote escaped. */
export function tomlString(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

export function notifyLine(argv: readonly string[]): string {
  return `notify = [${argv.map(tomlString).join(', ')}] # added by lookout hooks install`;
}

/** Top-level keys must come before any table, so the line goes first. */
export function addNotify(text: string, line: string): string {
  return text === '' ? `${line}\n` : `${line}\n${text}`;
}

export function removeNotify(text: string, line: string): string {
  const lines = text.split('\n');
  const index = lines.indexOf(line);
  if (index === -1) return text;
  lines.splice(index, 1);
  return lines.join('\n');
}
