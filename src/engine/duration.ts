// Durations as people type them ("30m", "2h", "1d", "7d") and as rows print them ("4m 12s").

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** Parses "90s", "30m", "2h", "1d", "1h30m"; returns null for anything else. */
export function parseDuration(text: string): number | null {
  const trimmed = text.trim();
  if (!/^(\d+[smhdw])+$/.test(trimmed)) return null;
  let total = 0;
  for (const match of trimmed.matchAll(/(\d+)([smhdw])/g)) {
    const unit = UNIT_MS[match[2] ?? ''];
    if (unit === undefined) return null;
    total += Number(match[1]) * unit;
  }
  return total > 0 ? total : null;
}

/** "4m 12s", "2h 5m", "3d 4h", "12s"; negative and sub-second spans read "0s". */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3_600);
  const minutes = Math.floor((seconds % 3_600) / 60);
  const secs = seconds % 60;
  if (days > 0) return hours > 0 ? `${days}d ${hours}h` : `${days}d`;
  if (hours > 0) return minutes > 0 ? `${hours}h ${minutes}m` : `${hours}h`;
  if (minutes > 0) return secs > 0 ? `${minutes}m ${secs}s` : `${minutes}m`;
  return `${secs}s`;
}
