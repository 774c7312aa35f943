// fish's single quotes, for the completion script: inside them fish reads `\\` and `\'` as escapes
// (POSIX shells do not), so POSIX quoting of a path holding `\'` ends the quote early in fish.

export function fishQuote(text: string): string {
  return `'${text.replace(/[\\']/g, (char) => `\\${char}`)}'`;
}
