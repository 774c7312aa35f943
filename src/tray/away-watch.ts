// "Only when away" (R91, issue 49): Electron's powerMonitor says how long the person has been idle
// and when the screen locks; the runtime's phone sends while isAway holds. Polled every 15 s:
// powerMonitor has no event for "idle for N minutes".
import { isAway } from '../main/phone/away';

/** The parts of Electron's powerMonitor used here (a fake in the tests). */
export interface PowerPort {
  getSystemIdleTime(): number;
  on(event: 'lock-screen' | 'unlock-screen', listener: () => void): void;
}

const POLL_MS = 15_000;

export class AwayWatch {
  private locked = false;
  private readonly timer: NodeJS.Timeout;
  private last: boolean | null = null;

  constructor(
    private readonly power: PowerPort,
    private readonly awayAfter: () => number,
    private readonly setAway: (away: boolean) => void,
  ) {
    power.on('lock-screen', () => {
      this.locked = true;
      this.check();
    });
    power.on('unlock-screen', () => {
      this.locked = false;
      this.check();
    });
    this.timer = setInterval(() => this.check(), POLL_MS);
    this.timer.unref();
    this.check();
  }

  check(): void {
    let idle = 0;
    try {
      idle = this.power.getSystemIdleTime();
    } catch {
      // Some desktops cannot tell: only a locked screen counts as away there.
      idle = 0;
    }
    const away = isAway(idle, this.locked, this.awayAfter());
    if (away === this.last) return;
    this.last = away;
    this.setAway(away);
  }

  dispose(): void {
    clearInterval(this.timer);
  }
}
