// The hook as the agents run it on macOS and Linux: a few lines of POSIX sh that append the
// payload to the spool in one write — a Node process takes longer to start than the 50 ms a hook
// may cost (docs/hooks.md). `lookout hook` does the same in Node (and on Windows).
import { shellQuote } from '../open/plan';
import { SPOOL_ROTATE_BYTES } from '../../providers/hooks/spool-format';

export const SHIM_NAME = 'lookout-hook';

/**
 * $1 is the provider (claude, codex, codex-notify); Codex's notify passes its JSON as the last
 * argument instead of stdin. JSON text has no raw newlines inside strings, so dropping them keeps
 * it valid and one line long. Time: GNU date gives milliseconds; elsewhere seconds ("s").
 */
export function shimText(spoolFolder: string): string {
  return `#!/bin/sh
# Lookout's agent hook (written by \`lookout hooks install\`; \`lookout hooks uninstall\` removes it).
# Appends one line per event to Lookout's spool; prints nothing; always exits 0.
exec 2>/dev/null
spool=${shellQuote(spoolFolder)}
case "$1" in
  claude) provider=claude channel=hook; payload=$(head -c 262144 | tr -d '\\r\\n') ;;
  codex) provider=codex channel=hook; payload=$(head -c 262144 | tr -d '\\r\\n') ;;
  codex-notify) provider=codex channel=notify; eval "payload=\\\${$#}"; payload=$(printf '%s' "$payload" | tr -d '\\r\\n') ;;
  *) exit 0 ;;
esac
case "$payload" in '{'*'}') ;; *) exit 0 ;; esac
at=$(date +%s%3N 2>/dev/null); precision=ms
case "$at" in *[!0-9]*|'') at=$(date +%s)000; precision=s ;; esac
file="$spool/$provider.jsonl"
mkdir -p "$spool"
# An unwritable spool is not waited on: the hook leaves at once.
[ -d "$spool" ] && [ -w "$spool" ] || exit 0
[ -f "$file" ] && [ "$(wc -c < "$file" || echo 0)" -gt ${SPOOL_ROTATE_BYTES} ] && mv -f "$file" "$file.1"
line=$(printf '{"provider":"%s","at":%s,"precision":"%s","channel":"%s","payload":%s}' "$provider" "$at" "$precision" "$channel" "$payload")
# sh writes a long line in several pieces: a lock keeps concurrent hooks from interleaving them.
# A write holds it for milliseconds; one held for two seconds was left by a killed hook, and is
# taken over. Without the lock nothing is written: a lost event beats two corrupted ones.
tries=0
until mkdir "$file.lock"; do
  tries=$((tries + 1))
  if [ "$tries" -gt 200 ]; then rmdir "$file.lock"; mkdir "$file.lock" || exit 0; break; fi
  sleep 0.01 || exit 0
done
{ printf '%s\\n' "$line" >> "$file"; } 2>/dev/null
rmdir "$file.lock"
exit 0
`;
}
