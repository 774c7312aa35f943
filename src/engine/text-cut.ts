// Text from files and other machines cut to a length a reader can use (issue 25 item 2): a
// 200 KB branch must not reach a notification, a row or a program's argv whole.

/** `text` at most `max` UTF-16 units long, ending in "…" when it was cut; never half a character. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - 1);
  const last = text.charCodeAt(end - 1);
  // A high surrogate left at the end would be half of a character made of two units.
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return withEllipsis(text.slice(0, end));
}

/**
 * `head` and "…" as one new string. Joined, not concatenated: in V8 `${head}…` is a pair that
 * points at `head`, and `head`, a slice, at the whole text it was cut from (a 1 MB prompt kept
 * alive by its 100-character title for as long as the session is listed, issue 51).
 */
function withEllipsis(head: string): string {
  return [head, '…'].join('');
}

/** Shorter than this, V8 copies a slice rather than pointing into its source. */
const SLICE_MIN_COPIED = 13;

/**
 * `text` as a new string of its own characters, joined as withEllipsis is: a slice (`slice`,
 * `trim`, `split`) of a longer string keeps that whole string alive, and what a reading keeps
 * lives as long as its session (issue 51).
 */
function ownText(text: string): string {
  return text.length < SLICE_MIN_COPIED ? text : [text.slice(0, -1), text.slice(-1)].join('');
}

/** White space that one line folds: a run of two, or any but a plain space. */
const FOLDABLE = /\s\s|[^\S ]/;

/** One line of at most `max` units: every run of white space (a newline too) becomes one space. */
export function cutLine(text: string, max: number): string {
  // Only a head a little longer than `max` is looked at: flattening never makes text longer.
  const limit = max * 4 + 16;
  const long = text.length > limit;
  const head = long ? text.slice(0, limit) : text;
  // Most lines have nothing to fold (single spaces only): a test is cheaper than a replace (issue 27).
  const flat = (FOLDABLE.test(head) ? head.replace(/\s+/g, ' ') : head).trim();
  // What fits whole may still be a slice of the caller's longer text (a line split from a long message).
  if (!long) return flat.length <= max ? ownText(flat) : cutText(flat, max);
  // The text goes on past the head: it ends in "…" even when the folded head fits.
  return flat.length < max ? withEllipsis(flat) : cutText(`${flat}…`, max);
}
