// "Only when away" (R91): the person has been idle for awayAfter, or the screen is locked. The tray
// reads both from Electron's powerMonitor and asks this; the rule itself stays here, tested.

export function isAway(idleSeconds: number, locked: boolean, awayAfterMs: number): boolean {
  return locked || idleSeconds * 1000 >= awayAfterMs;
}
