// Text from files and other machines cut to a length a reader can use (issue 25 item 2): a
// 200 KB branch must not reach a notification, a row or a program's argv whole.

/** `text` at most `max` UTF-16 units long, ending in "…" when it was cut; never half a character. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - 1);
  const last = text.charCodeAt(end - 1);
  // A high surrogate left at the end would be half of a character made of two units.
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
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
  if (!long) return cutText(flat, max);
  // The text goes on past the head: it ends in "…" even when the folded head fits.
  return flat.length < max ? `${flat}…` : cutText(`${flat}…`, max);
}
