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
mkdir -p "$spool" 2>/dev/null
[ -f "$file" ] && [ "$(wc -c < "$file" 2>/dev/null || echo 0)" -gt ${SPOOL_ROTATE_BYTES} ] && mv -f "$file" "$file.1" 2>/dev/null
line=$(printf '{"provider":"%s","at":%s,"precision":"%s","channel":"%s","payload":%s}' "$provider" "$at" "$precision" "$channel" "$payload")
printf '%s\\n' "$line" >> "$file" 2>/dev/null
exit 0
`;
}
