// Text shown to the person who approves it, made to read as what it is (issue 47 item 2): every
// control, bidirectional, invisible and unusual blank character becomes a visible token, so a
// command cannot look different from what runs. The terminal, notifications and the popover's
// answer card and the phone's messages all show text through this module; `--json` keeps exact strings.

/** Why a character is shown as a token: it acts on the text or the screen, or cannot be seen. */
export type HiddenKind = 'control' | 'bidi' | 'invisible' | 'blank';

/**
 * Controls (C0, DEL, C1, line and paragraph separators), format characters (bidi marks, zero
 * widths, soft hyphen, tags), joiners and selectors that draw nothing, fillers that draw a blank,
 * and every space but U+0020.
 */
const HIDDEN =
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: the class lists joiners and variation selectors one by one, on purpose
  /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\u034f\u115f\u1160\u3164\uffa0\u2800\u180b-\u180f\ufe00-\ufe0f\u{e0100}-\u{e01ef}]/gu;

/** Overrides, embeddings, isolates and the marks that steer the order of the text around them. */
const BIDI = /^[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]$/u;
const CONTROL = /^[\p{Cc}\p{Zl}\p{Zp}]$/u;
const BLANK = /^[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\u115f\u1160\u3164\uffa0\u2800]$/u;

/** What kind of hidden character this is (only for characters HIDDEN matches). */
function hiddenKind(char: string): HiddenKind {
  if (BIDI.test(char)) return 'bidi';
  if (CONTROL.test(char)) return 'control';
  if (BLANK.test(char)) return 'blank';
  return 'invisible';
}

/** A hidden character's token: C0 controls and DEL by their pictures (␛, ␊, ␡), the rest as <U+202E>. */
function hiddenToken(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return '\u2421';
  return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
}

/** The text with every hidden character shown as its token: what a terminal or a notification shows. */
export function visibleText(text: string): string {
  return text.replace(HIDDEN, hiddenToken);
}

/** The same, line by line: a message of several lines (a digest) keeps its line breaks, and only them. */
export function visibleLines(text: string): string {
  return text.split('\n').map(visibleText).join('\n');
}

/** A run of plain text, or one hidden character's token and kind (for a page that styles tokens). */
export interface TextPiece {
  text: string;
  hidden: HiddenKind | null;
}

/** The text as pieces: the same tokens as visibleText, each apart so a page can mark it. */
export function visiblePieces(text: string): TextPiece[] {
  const pieces: TextPiece[] = [];
  let from = 0;
  for (const match of text.matchAll(HIDDEN)) {
    const at = match.index ?? 0;
    if (at > from) pieces.push({ text: text.slice(from, at), hidden: null });
    pieces.push({ text: hiddenToken(match[0]), hidden: hiddenKind(match[0]) });
    from = at + match[0].length;
  }
  if (from < text.length) pieces.push({ text: text.slice(from), hidden: null });
  return pieces;
}

/** How many hidden characters the text holds. */
export function hiddenCount(text: string): number {
  return text.match(HIDDEN)?.length ?? 0;
}
