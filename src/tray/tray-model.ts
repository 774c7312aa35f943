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

export type MenuAction = 'open' | 'mute-all-1h' | 'settings' | 'start-at-login' | 'quit';

export interface MenuItemSpec {
  action: MenuAction;
  label: string;
  checked?: boolean;
}

export function contextMenu(startsAtLogin: boolean): MenuItemSpec[] {
  return [
    { action: 'open', label: 'Open Lookout' },
    { action: 'mute-all-1h', label: 'Mute all for 1 h' },
    { action: 'settings', label: 'Settings…' },
    { action: 'start-at-login', label: 'Start at login', checked: startsAtLogin },
    { action: 'quit', label: 'Quit Lookout' },
  ];
}
