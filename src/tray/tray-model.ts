// What the tray shows, as pure data: the tooltip, the macOS title, the context menu's items.
import type { Snapshot } from '../engine/row';

export function tooltip(snapshot: Snapshot): string {
  const { needYou, review, working, limited } = snapshot.attention;
  const base = `${needYou} need${needYou === 1 ? 's' : ''} you · ${review} to review · ${working} working`;
  // R81: not counted, but the person wants to know work is held.
  return limited > 0 ? `${base} · ${limited} stopped by a limit` : base;
}

/**
 * R81–R83 in the menu: per provider (and machine), how many sessions a limit stopped and until
 * when (the earliest reset), how many can go on, and the newest usage windows. `clock` words a
 * time of day on this machine.
 */
export function limitLines(snapshot: Snapshot, names: Readonly<Record<string, string>>, clock: (ms: number) => string): string[] {
  const groups = new Map<string, { name: string; stopped: number; reset: number; until: number | null }>();
  for (const row of snapshot.sessions) {
    if (row.muted !== null || row.historical || (row.band !== 'limited' && row.band !== 'limit-reset')) continue;
    const name = `${names[row.provider] ?? row.provider}${row.host === null ? '' : ` on ${row.host}`}`;
    const group = groups.get(name) ?? { name, stopped: 0, reset: 0, until: null };
    const resetsAt = row.resetsAt === null ? null : Date.parse(row.resetsAt);
    if (row.band === 'limit-reset') group.reset += 1;
    else {
      group.stopped += 1;
      if (resetsAt !== null && (group.until === null || resetsAt < group.until)) group.until = resetsAt;
    }
    groups.set(name, group);
  }
  const lines: string[] = [];
  for (const group of groups.values()) {
    if (group.stopped > 0) lines.push(`${group.name}: ${group.stopped} stopped by a usage limit${group.until === null ? '' : ` until ${clock(group.until)}`}`);
    if (group.reset > 0) lines.push(`${group.name}: limit reset, ${group.reset} can go on`);
  }
  for (const limit of snapshot.limits) {
    const windows = limit.windows.map(
      (window) => `${window.name} ${Math.round(window.usedPercent)}%${window.resetsAt === null ? '' : ` (resets ${clock(Date.parse(window.resetsAt))})`}`,
    );
    lines.push(`${names[limit.provider] ?? limit.provider}${limit.host === null ? '' : ` on ${limit.host}`} usage: ${windows.join(' · ')}`);
  }
  return lines;
}

/** macOS shows the count beside the icon too; nothing when nothing is counted. */
export function trayTitle(snapshot: Snapshot): string {
  return snapshot.attention.count > 0 ? String(snapshot.attention.count) : '';
}

export type MenuAction = 'open' | 'mute-all-1h' | 'pause-1h' | 'pause-tomorrow' | 'resume' | 'settings' | 'start-at-login' | 'quit';

export interface MenuItemSpec {
  action: MenuAction;
  label: string;
  checked?: boolean;
}

/**
 * `pausedUntil`: the local time notifications come back ("08:00"), when paused. `limits`: the
 * lines of limitLines, first, each opening Lookout (Lookout never resumes a session itself, R84).
 */
export function contextMenu(startsAtLogin: boolean, pausedUntil: string | null = null, limits: readonly string[] = []): MenuItemSpec[] {
  const pause: MenuItemSpec[] =
    pausedUntil === null
      ? [
          { action: 'pause-1h', label: 'Pause notifications for 1 h' },
          { action: 'pause-tomorrow', label: 'Pause notifications until tomorrow' },
        ]
      : [{ action: 'resume', label: `Resume notifications (paused until ${pausedUntil})` }];
  return [
    ...limits.map((label): MenuItemSpec => ({ action: 'open', label })),
    { action: 'open', label: 'Open Lookout' },
    { action: 'mute-all-1h', label: 'Mute all for 1 h' },
    ...pause,
    { action: 'settings', label: 'Settings…' },
    { action: 'start-at-login', label: 'Start at login', checked: startsAtLogin },
    { action: 'quit', label: 'Quit Lookout' },
  ];
}
