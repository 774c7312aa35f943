// Reading an installed package: its version and a file inside it, under a node_modules folder.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The lab's pinned agents. `LOOKOUT_LAB_MODULES` points the same scenarios at another install (lab:latest). */
export const LAB_MODULES = process.env.LOOKOUT_LAB_MODULES ?? resolve(__dirname, '../../node_modules');

export function packageVersion(modules: string, name: string): string | null {
  try {
    const manifest = JSON.parse(readFileSync(join(modules, name, 'package.json'), 'utf8')) as { version?: unknown };
    return typeof manifest.version === 'string' ? manifest.version : null;
  } catch {
    return null;
  }
}

export function fileIn(modules: string, name: string, ...path: string[]): string | null {
  const file = join(modules, name, ...path);
  return existsSync(file) ? file : null;
}
