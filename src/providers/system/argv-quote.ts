// POSIX single quotes, for the only texts Lookout writes for a shell to read: the hook shim, a
// macOS .command file and the autostart launcher. Nothing Lookout runs itself goes through a shell.

export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
