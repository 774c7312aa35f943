// The hook as the agents run it on macOS and Linux: a few lines of POSIX sh that append the
// payload to the spool in one write — a Node process takes longer to start than the 50 ms a hook
// may cost (docs/hooks.md). `lookout hook` does the same in Node (and on Windows).
import { shellQuote } from '../../providers/system/argv-quote';
import type { HookEntry } from '../../providers';
import { SPOOL_ROTATE_BYTES, safeProviderWord } from '../../providers/hooks/spool-format';

export const SHIM_NAME = 'lookout-hook';

/** A hook entry of the registry, with the provider whose spool it writes. */
export type ShimEntry = HookEntry & { provider: string };

/** One `case` arm per hook entry: where its payload comes from, which spool and channel it feeds. */
function arm(entry: ShimEntry): string {
  // Entry names and provider ids are plain words: checked, since they are written into sh.
  if (!safeProviderWord(entry.name) || !safeProviderWord(entry.provider)) throw new Error(`unsafe hook entry name "${entry.name}" for "${entry.provider}"`);
  const payload =
    entry.payload === 'stdin' ? `payload=$(read_stdin | tr -d '\\r\\n')` : `eval "payload=\\\${$#}"; payload=$(printf '%s' "$payload" | tr -d '\\r\\n')`;
  return `  ${entry.name}) provider=${entry.provider} channel=${entry.channel}; ${payload} ;;`;
}

/**
 * $1 names the hook entry (the registry's `hooks.entries`); a notify program gets its JSON as the
 * last argument instead of stdin. JSON text has no raw newlines inside strings, so dropping them
 * keeps it valid and one line long. Time: GNU date gives milliseconds; elsewhere seconds ("s").
 */
/** Where the answering arms find a running Lookout, and the Node and CLI that bring it a prompt. */
export interface ShimAnswering {
  entries: readonly { name: string; provider: string }[];
  /** LOOKOUT_HOME as installed: the hook asks the Lookout of that home, whatever the agent's environment says. */
  home: string;
  runFolder: string;
  node: string;
  cli: string;
}

function answerArm(entry: { name: string; provider: string }): string {
  if (!safeProviderWord(entry.name) || !safeProviderWord(entry.provider)) throw new Error(`unsafe hook entry name "${entry.name}" for "${entry.provider}"`);
  return `  ${entry.name}) provider=${entry.provider} channel=answer; payload=$(read_stdin | tr -d '\\r\\n') ;;`;
}

const NO_ANSWERING: ShimAnswering = { entries: [], home: '/nonexistent', runFolder: '/nonexistent', node: 'node', cli: '/nonexistent' };

export function shimText(spoolFolder: string, entries: readonly ShimEntry[], answering: ShimAnswering = NO_ANSWERING): string {
  return `#!/bin/sh
# Lookout's agent hook (written by \`lookout hooks install\`; \`lookout hooks uninstall\` removes it).
# Appends one line per event to Lookout's spool; prints nothing; always exits 0.
exec 2>/dev/null
# Prompts and tool inputs go into the spool: it is private (folders 0700, files 0600).
umask 077
spool=${shellQuote(spoolFolder)}
# Standard input is read for 1.5 s at most (as \`lookout hook\` does): an agent that leaves it
# open must not keep its hook running. dd passes on each block as it reads it (head would hold it
# in a buffer the watchdog's kill throws away), so a payload already read is kept. At most 256 KB
# and one block: a longer payload is dropped below, like the Node hook does. The watchdog's output
# goes nowhere, so $( ) never waits on it.
read_stdin() {
  # A command run in the background reads /dev/null unless told otherwise: stdin goes in as fd 3.
  exec 3<&0
  dd bs=4096 count=65 <&3 2>/dev/null &
  reader=$!
  ( sleep 1.5 2>/dev/null || sleep 2; kill "$reader" ) >/dev/null 2>&1 &
  watchdog=$!
  wait "$reader"
  kill "$watchdog" 2>/dev/null
}
case "$1" in
${entries.map(arm).join('\n')}
${answering.entries.map(answerArm).join('\n')}
  *) exit 0 ;;
esac
case "$payload" in '{'*'}') ;; *) exit 0 ;; esac
[ "\${#payload}" -gt 262144 ] && exit 0
if [ "$channel" = answer ]; then
  # A prompt goes to Lookout only while one runs (its socket, its live pid): otherwise the agent's
  # own prompt decides at once, with no Node started. Whatever happens, nothing is printed here.
  run=${shellQuote(answering.runFolder)}
  [ -S "$run/answer.sock" ] && [ -f "$run/answer.pid" ] || exit 0
  owner=$(cat "$run/answer.pid")
  case "$owner" in ''|*[!0-9]*) exit 0 ;; esac
  kill -0 "$owner" || exit 0
  printf '%s' "$payload" | LOOKOUT_HOME=${shellQuote(answering.home)} ${shellQuote(answering.node)} ${shellQuote(answering.cli)} hook "$1"
  exit 0
fi
at=$(date +%s%3N 2>/dev/null); precision=ms
case "$at" in *[!0-9]*|'') at=$(date +%s)000; precision=s ;; esac
file="$spool/$provider.jsonl"
# Made private (umask 077), so Lookout still accepts its home (issue 47 item 4).
(umask 077; mkdir -p "$spool")
# An unwritable spool is not waited on: the hook leaves at once.
[ -d "$spool" ] && [ -w "$spool" ] || exit 0
# The envelope's own keys come after the payload: a payload cannot pass for another provider or time.
line=$(printf '{"payload":%s,"provider":"%s","at":%s,"precision":"%s","channel":"%s"}' "$payload" "$provider" "$at" "$precision" "$channel")
# sh writes a long line in several pieces: a lock keeps concurrent hooks from interleaving them.
# A write holds it for milliseconds; one held for two seconds was left by a killed hook, and is
# taken over. Without the lock nothing is written: a lost event beats two corrupted ones.
tries=0
until mkdir "$file.lock"; do
  tries=$((tries + 1))
  if [ "$tries" -gt 200 ]; then rmdir "$file.lock"; mkdir "$file.lock" || exit 0; break; fi
  sleep 0.01 || exit 0
done
# Under the lock: rotation (no writer appends to a file being moved), and a torn last line (a
# write cut short, e.g. by a full disk) ended before this one, so this event stands on its own.
[ -f "$file" ] && [ "$(wc -c < "$file" || echo 0)" -gt ${SPOOL_ROTATE_BYTES} ] && mv -f "$file" "$file.1"
sep=''
[ -s "$file" ] && [ -n "$(tail -c 1 "$file")" ] && sep='\\n'
{ printf '%b%s\\n' "$sep" "$line" >> "$file"; } 2>/dev/null
rmdir "$file.lock"
exit 0
`;
}
