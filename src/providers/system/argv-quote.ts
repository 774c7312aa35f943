// POSIX single quotes, for the only texts Lookout writes for a shell to read: the hook shim and a
// macOS .command file. Nothing Lookout runs itself goes through a shell.

export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
