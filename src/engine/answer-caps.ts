// The answer channel's caps, one place (issue 48): the contract's schemas, the channel's protocol
// and the agents' drafts (a hook's, a plugin's) cut or refuse by these. Plain numbers: a plugin
// bundles them without zod.

/** The most of a prompt's text a request carries (the rest is counted as hidden). */
export const ANSWER_TEXT_MAX = 64_000;
/** A question's words, an option's description, a denial's message. */
export const ANSWER_QUESTION_MAX = 2000;
/** An option's label (what an answer sends back). */
export const ANSWER_LABEL_MAX = 500;
/** A tool's name, a session's, agent's or request's id, a question's header. */
export const ANSWER_WORD_MAX = 200;
/** Questions in one prompt. */
export const ANSWER_QUESTIONS_MAX = 20;
/** Options in one question. */
export const ANSWER_OPTIONS_MAX = 50;
/** A channel line longer than this is not a message: the connection is closed. */
export const ANSWER_LINE_MAX_BYTES = 256 * 1024;
