// The tray app's global key (issue 15): Ctrl+Shift+J (⌘⇧J on macOS) by default, set in
// settings.json (`shortcut`, null to turn it off). A key another application holds is reported
// once, never silently missing. Pressed, it shows the popover with the next session wanting
// attention selected; pressed again, the one after (R33).

/** Electron's globalShortcut, as far as the key needs it. */
export interface ShortcutPort {
  register(accelerator: string, callback: () => void): boolean;
  unregister(accelerator: string): void;
}

/** The accelerator as the user reads it: ⌘⇧J on macOS, Ctrl+Shift+J elsewhere. */
function keyLabel(accelerator: string, platform: NodeJS.Platform): string {
  const parts = accelerator.split('+');
  if (platform !== 'darwin') return parts.map((part) => (part === 'CommandOrControl' || part === 'CmdOrCtrl' ? 'Ctrl' : part)).join('+');
  const symbols: Record<string, string> = {
    CommandOrControl: '⌘',
    CmdOrCtrl: '⌘',
    Command: '⌘',
    Cmd: '⌘',
    Control: '⌃',
    Ctrl: '⌃',
    Alt: '⌥',
    Option: '⌥',
    Shift: '⇧',
  };
  return parts.map((part) => symbols[part] ?? part).join('');
}

export class GlobalKey {
  private registered: string | null = null;
  /** The last accelerator asked for, registered or refused: each is tried once. */
  private asked: string | null = null;

  constructor(
    private readonly port: ShortcutPort,
    private readonly platform: NodeJS.Platform,
    private readonly onPress: () => void,
    private readonly onProblem: (line: string) => void,
  ) {}

  /** Registers `accelerator` (null: none) in place of the current one; the same one again does nothing. */
  apply(accelerator: string | null): void {
    if (accelerator === this.asked) return;
    this.asked = accelerator;
    if (this.registered !== null) this.port.unregister(this.registered);
    this.registered = null;
    if (accelerator === null) return;
    let taken: boolean;
    try {
      taken = !this.port.register(accelerator, this.onPress);
    } catch {
      taken = true;
    }
    if (taken) {
      this.onProblem(
        `lookout: the global key ${keyLabel(accelerator, this.platform)} is held by another application (or this desktop allows none); set "shortcut" in settings.json to another key, or to null to turn it off`,
      );
      return;
    }
    this.registered = accelerator;
  }

  /** The key in use, if any (the tray menu shows it). */
  get current(): string | null {
    return this.registered;
  }

  dispose(): void {
    if (this.registered !== null) this.port.unregister(this.registered);
    this.registered = null;
  }
}
