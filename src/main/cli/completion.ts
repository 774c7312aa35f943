// `lookout completion bash|zsh|fish`: a completion script for the shell, made from the command
// table (command-table.ts): commands, each command's options, review states, subcommands, and
// session ids (asked of `lookout __sessions` as the user types: id, tab, title).
import { shellQuote } from '../../providers/system/argv-quote';
import { fishQuote } from './fish-quote';
import type { ArgumentKind, CommandSpec } from './command-table';
import { commandTable, optionValues } from './command-table';

export type Shell = 'bash' | 'zsh' | 'fish';

/** How the script runs Lookout: `lookout` on PATH, else the program that wrote it (npx, a checkout). */
export interface Runner {
  node: string;
  cli: string;
}

const allValued = (table: readonly CommandSpec[]): string[] => [...new Set(table.flatMap((spec) => spec.valued))];

/** `case` patterns of the argument positions that take `want`, as `cmd:n` (n counts from 0). */
function positions(table: readonly CommandSpec[], want: (kind: ArgumentKind) => boolean): string[] {
  return table.flatMap((spec) => spec.args.flatMap((kind, index) => (want(kind) ? [`${spec.name}:${index}`] : [])));
}

function wordCases(table: readonly CommandSpec[]): { pattern: string; words: readonly string[] }[] {
  return table.flatMap((spec) => spec.args.flatMap((kind, index) => (kind.kind === 'words' ? [{ pattern: `${spec.name}:${index}`, words: kind.words }] : [])));
}

function bash(table: readonly CommandSpec[], runner: Runner): string {
  const names = table.map((spec) => spec.name).join(' ');
  const sessions = positions(table, (kind) => kind.kind === 'session').join('|');
  return `# lookout completion for bash: source it, or put it in ~/.local/share/bash-completion/completions/lookout
_lookout_run() {
  if command -v lookout >/dev/null 2>&1; then lookout "$@"; else ${shellQuote(runner.node)} ${shellQuote(runner.cli)} "$@"; fi
}
_lookout() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" cmd="\${COMP_WORDS[1]}"
  COMPREPLY=()
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=( $(compgen -W "${names}" -- "$cur") )
    return
  fi
  case "$prev" in
    --provider) COMPREPLY=( $(compgen -W "${optionValues('--provider').join(' ')}" -- "$cur") ); return ;;
    ${allValued(table).join('|')}) return ;;
  esac
  if [[ "$cur" == -* ]]; then
    case "$cmd" in
${table.map((spec) => `      ${spec.name}) COMPREPLY=( $(compgen -W "${spec.options.join(' ')}" -- "$cur") ) ;;`).join('\n')}
    esac
    return
  fi
  local n=0 i
  for (( i=2; i<COMP_CWORD; i++ )); do
    case "\${COMP_WORDS[i]}" in
      ${allValued(table).join('|')}) (( i++ )) ;;
      -*) ;;
      *) (( n++ )) ;;
    esac
  done
  case "$cmd:$n" in
${wordCases(table)
  .map((item) => `    ${item.pattern}) COMPREPLY=( $(compgen -W "${item.words.join(' ')}" -- "$cur") ) ;;`)
  .join('\n')}
    ${sessions})
      # Matched here, not by compgen -W (which would expand what it is given).
      local id
      while IFS=$'\t' read -r id _; do
        [[ "$id" == "$cur"* ]] && COMPREPLY+=( "$id" )
      done < <(_lookout_run __sessions 2>/dev/null) ;;
  esac
}
complete -F _lookout lookout
`;
}

function zsh(table: readonly CommandSpec[], runner: Runner): string {
  const sessions = positions(table, (kind) => kind.kind === 'session').join('|');
  return `#compdef lookout
# lookout completion for zsh: put it in a folder of $fpath as _lookout, or source it after compinit
_lookout_run() {
  if (( $+commands[lookout] )); then lookout "$@"; else ${shellQuote(runner.node)} ${shellQuote(runner.cli)} "$@"; fi
}
_lookout() {
  local cmd=\${words[2]} cur=\${words[CURRENT]} prev=\${words[CURRENT-1]}
  if (( CURRENT == 2 )); then
    compadd -- ${table.map((spec) => spec.name).join(' ')}
    return
  fi
  case $prev in
    (--provider) compadd -- ${optionValues('--provider').join(' ')}; return ;;
    (${allValued(table).join('|')}) return ;;
  esac
  if [[ $cur == -* ]]; then
    case $cmd in
${table
  .filter((spec) => spec.options.length > 0)
  .map((spec) => `      (${spec.name}) compadd -- ${spec.options.join(' ')} ;;`)
  .join('\n')}
    esac
    return
  fi
  local -i n=0 i
  for (( i=3; i<CURRENT; i++ )); do
    case \${words[i]} in
      (${allValued(table).join('|')}) (( i++ )) ;;
      (-*) ;;
      (*) (( n++ )) ;;
    esac
  done
  case "$cmd:$n" in
${wordCases(table)
  .map((item) => `    (${item.pattern}) compadd -- ${item.words.join(' ')} ;;`)
  .join('\n')}
    (${sessions})
      local -a lines ids titles
      lines=(\${(f)"$(_lookout_run __sessions 2>/dev/null)"})
      ids=(\${lines%%$'\\t'*})
      titles=(\${lines/$'\\t'/  -- })
      compadd -l -d titles -- $ids ;;
  esac
}
if (( $+functions[compdef] )); then compdef _lookout lookout; fi
`;
}

function fish(table: readonly CommandSpec[], runner: Runner): string {
  const lines = [
    '# lookout completion for fish: put it in ~/.config/fish/completions/lookout.fish',
    'function __lookout_run',
    `    if command -q lookout; lookout $argv; else; ${fishQuote(runner.node)} ${fishQuote(runner.cli)} $argv; end`,
    'end',
    '# The command and how many arguments follow it (options and their values not counted).',
    'function __lookout_at',
    '    set -l words (commandline -opc)',
    '    set -l n 0',
    '    set -l skip 0',
    '    for word in $words[3..-1]',
    '        if test $skip = 1; set skip 0; continue; end',
    `        switch $word`,
    `            case ${allValued(table).join(' ')}`,
    '                set skip 1',
    "            case '-*'",
    "            case '*'",
    '                set n (math $n + 1)',
    '        end',
    '    end',
    '    test (count $words) -ge 2; or return 1',
    '    for want in $argv',
    '        string match -q -- $want "$words[2]:$n"; and return 0',
    '    end',
    '    return 1',
    'end',
    'complete -c lookout -f',
    `complete -c lookout -n __fish_use_subcommand -a '${table.map((spec) => spec.name).join(' ')}'`,
    ...table.flatMap((spec) =>
      spec.options.map(
        (option) =>
          `complete -c lookout -n '__fish_seen_subcommand_from ${spec.name}' -l ${option.slice(2)}${spec.valued.includes(option) ? ' -r' : ''}${option === '--provider' ? ` -a '${optionValues(option).join(' ')}'` : ''}`,
      ),
    ),
    ...wordCases(table).map((item) => `complete -c lookout -n '__lookout_at ${item.pattern}' -a '${item.words.join(' ')}'`),
    `complete -c lookout -n '__lookout_at ${positions(table, (kind) => kind.kind === 'session').join(' ')}' -a '(__lookout_run __sessions 2>/dev/null)'`,
  ];
  return `${lines.join('\n')}\n`;
}

export function completionScript(shell: Shell, runner: Runner): string {
  const table = commandTable();
  switch (shell) {
    case 'bash':
      return bash(table, runner);
    case 'zsh':
      return zsh(table, runner);
    case 'fish':
      return fish(table, runner);
  }
}
