// What this machine offers for opening a session: read with argv-only spawns and /proc.
import { execFileSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import type { Probes } from './plan';
import { readPlace } from './place-probe';

export function systemProbes(env: NodeJS.ProcessEnv = process.env): Probes {
  return {
    platform: process.platform,
    terminal: env.TERMINAL ?? null,
    tmuxPanes() {
      try {
        const out = execFileSync('tmux', ['list-panes', '-a', '-F', '#{pane_id} #{pane_pid}'], {
          encoding: 'utf8',
          timeout: 2000,
          stdio: ['ignore', 'pipe', 'ignore'],
        });
        return out
          .split('\n')
          .map((line) => line.trim().split(' '))
          .filter((parts): parts is [string, string] => parts.length === 2 && /^%\d+$/.test(parts[0] ?? '') && /^\d+$/.test(parts[1] ?? ''))
          .map(([paneId, panePid]) => ({ paneId, panePid: Number(panePid) }));
      } catch {
        return null;
      }
    },
    has(command) {
      const candidates = isAbsolute(command)
        ? [command]
        : (env.PATH ?? '')
            .split(delimiter)
            .filter((dir) => dir !== '')
            .map((dir) => join(dir, command));
      return candidates.some((path) => {
        try {
          accessSync(path, constants.X_OK);
          return statSync(path).isFile();
        } catch {
          return false;
        }
      });
    },
    place: readPlace,
    x11: (env.DISPLAY ?? '') !== '' && (env.WAYLAND_DISPLAY ?? '') === '',
    isFolder(path) {
      try {
        return statSync(path).isDirectory();
      } catch {
        return false;
      }
    },
  };
}
