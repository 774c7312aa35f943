// A stand-in for libnotify's notify-send (0.7.10+, with --action) that records each call's argv,
// one file per call (written whole, then renamed), and shows nothing.
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface FakeNotifySend {
  /** The folder to put first on PATH. */
  bin: string;
  /** Each call's arguments, in no particular order. */
  calls(): string[][];
}

export function fakeNotifySend(dir: string): FakeNotifySend {
  const bin = join(dir, 'fake-bin');
  const log = join(dir, 'fake-notify-calls');
  mkdirSync(bin, { recursive: true });
  mkdirSync(log, { recursive: true });
  const script = [
    '#!/bin/sh',
    // Lookout asks once whether this notify-send has actions.
    `case "$1" in --help) echo '  -A, --action=[NAME=]Text...'; exit 0;; esac`,
    `out='${log}/call-'$$`,
    `for arg in "$@"; do printf '%s\\0' "$arg"; done > "$out.tmp" && mv "$out.tmp" "$out"`,
    '',
  ].join('\n');
  writeFileSync(join(bin, 'notify-send'), script);
  chmodSync(join(bin, 'notify-send'), 0o755);
  return {
    bin,
    calls: () =>
      readdirSync(log)
        .filter((name) => !name.endsWith('.tmp'))
        .map((name) => readFileSync(join(log, name), 'utf8').split('\0').slice(0, -1)),
  };
}

/** Waits for `condition`, at most `timeoutMs` (a condition, never a fixed sleep). */
