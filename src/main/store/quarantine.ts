// A file that fails validation is kept aside under a timestamped name, never overwritten.
import { renameSync } from 'node:fs';

export function keepAside(path: string, now: number): string {
  const stamp = new Date(now).toISOString().replace(/[:.]/g, '-');
  const aside = `${path}.corrupt-${stamp}`;
  renameSync(path, aside);
  return aside;
}
