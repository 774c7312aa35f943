// Where a JSON string ends, found in UTF-8 bytes without decoding them: JSON's structural bytes
// are ASCII, so a quote not escaped by an odd run of backslashes closes the string.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** The index of the quote that closes the string opening at `start` (a quote), or -1. */
export function closingQuote(bytes: Buffer, start: number): number {
  let at = bytes.indexOf(QUOTE, start + 1);
  while (at !== -1) {
    let slashes = 0;
    while (bytes[at - 1 - slashes] === BACKSLASH) slashes += 1;
    if (slashes % 2 === 0) return at;
    at = bytes.indexOf(QUOTE, at + 1);
  }
  return -1;
}
