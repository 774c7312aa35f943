// The words a desktop notification shows (issue 25 items 2 and 13). They come from transcripts and
// other machines: cut to a length no argv or daemon chokes on (the kernel takes 128 KB per
// argument), every control, bidirectional, invisible and unusual blank character shown visibly as
// the terminal shows it (issue 47), and, for the daemons that read a body as markup (most on
// Linux), `&`, `<` and `>` escaped so the text cannot make a link or mangle itself.
import type { NotificationPlan } from '../../engine';
import { cutText } from '../../engine/text-cut';
import { terminalLine } from '../text/terminal-text';

/** A title longer than this is cut (the engine's own are shorter: a folder, a branch, a verb). */
const TITLE_MAX = 300;
/** A body longer than this is cut before escaping, so the escaped body stays under 10 KB. */
const BODY_MAX = 2000;

const MARKUP: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/** Text for a body read as markup: shown as written, never as a tag or an entity. */
function escapeMarkup(text: string): string {
  return text.replace(/[&<>]/g, (char) => MARKUP[char] ?? char);
}

/** The daemons that read a notification body as markup: the freedesktop ones (Linux, the BSDs). */
export function readsMarkup(platform: NodeJS.Platform): boolean {
  return platform !== 'darwin' && platform !== 'win32';
}

/**
 * The title and body to show. The title is plain text to every daemon (the specification's
 * summary), so only the body is escaped; the body keeps the plan's own line breaks.
 */
export function shownText(plan: Pick<NotificationPlan, 'title' | 'body'>, markup: boolean): { title: string; body: string } {
  const title = terminalLine(cutText(plan.title, TITLE_MAX));
  const body = cutText(plan.body, BODY_MAX).split('\n').map(terminalLine).join('\n');
  return { title, body: markup ? escapeMarkup(body) : body };
}
