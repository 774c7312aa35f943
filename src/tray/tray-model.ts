// What the tray shows, as pure data: the tooltip, the macOS title, the context menu's items.
import type { Snapshot } from '../engine/row';

export function tooltip(snapshot: Snapshot): string {
  const { needYou, review, working } = snapshot.attention;
  return `${needYou} need${needYou === 1 ? 's' : ''} you · ${review} to review · ${working} working`;
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

/** `pausedUntil`: the local time notifications come back ("08:00"), when paused. */
export function contextMenu(startsAtLogin: boolean, pausedUntil: string | null = null): MenuItemSpec[] {
  const pause: MenuItemSpec[] =
    pausedUntil === null
      ? [
          { action: 'pause-1h', label: 'Pause notifications for 1 h' },
          { action: 'pause-tomorrow', label: 'Pause notifications until tomorrow' },
        ]
      : [{ action: 'resume', label: `Resume notifications (paused until ${pausedUntil})` }];
  return [
    { action: 'open', label: 'Open Lookout' },
    { action: 'mute-all-1h', label: 'Mute all for 1 h' },
    ...pause,
    { action: 'settings', label: 'Settings…' },
    { action: 'start-at-login', label: 'Start at login', checked: startsAtLogin },
    { action: 'quit', label: 'Quit Lookout' },
  ];
}
