// The one contract between the runtime and the popover, whatever carries it (Electron IPC or
// `lookout serve`): the state the popover shows, the commands it sends, validated with zod on the
// receiving side. Plain data only.
import * as z from 'zod/mini';
import { BANDS, CHILD_LIVENESS, CLAIM_KINDS, CONFIDENCES, LEVELS, REASONS, REVIEW_STATES, STATES, WORKFLOWS } from './vocabulary';
import { cutText } from './text-cut';
import { HHMM } from './quiet';
import { ANSWER_LABEL_MAX, ANSWER_OPTIONS_MAX, ANSWER_QUESTIONS_MAX, ANSWER_QUESTION_MAX, ANSWER_TEXT_MAX, ANSWER_WORD_MAX } from './answer-caps';

/** A time is ISO-8601: anything longer is no time. */
const time = z.string().check(z.maxLength(64));
const nullableTime = z.nullable(time);

/**
 * How long a row's words may be (issue 25 item 2): another machine's row is shown, notified and
 * never acted on by its words, so longer text is cut, not refused. What an answer sends back (a
 * label, the command shown beside Allow) is refused instead: cut, it would not be what was shown.
 */
export const ROW_TEXT_MAX = { id: 300, title: 500, branch: 250, detail: 1000, word: 200 } as const;
/** A folder longer than any path a system opens (Linux's PATH_MAX) is no folder: read as none. */
export const ROW_FOLDER_MAX = 4096;
const cut = (max: number) => z.string().check(z.overwrite((text: string) => cutText(text, max)));
const folder = z.nullable(z.string()).check(z.overwrite((path: string | null) => (path !== null && path.length > ROW_FOLDER_MAX ? null : path)));

/** A question as the answer channel carries it (its protocol takes this one; issue 48). */
export const questionSchema = z.object({
  question: z.string().check(z.maxLength(ANSWER_QUESTION_MAX)),
  header: z.nullable(z.string().check(z.maxLength(ANSWER_WORD_MAX))),
  multiple: z.boolean(),
  options: z
    .array(z.object({ label: z.string().check(z.maxLength(ANSWER_LABEL_MAX)), description: z.nullable(z.string().check(z.maxLength(ANSWER_QUESTION_MAX))) }))
    .check(z.maxLength(ANSWER_OPTIONS_MAX)),
});

const rowAnswerSchema = z.discriminatedUnion('state', [
  z.object({
    state: z.literal('open'),
    request: z.string().check(z.maxLength(100)),
    digest: z.string().check(z.maxLength(100)),
    prompt: z.enum(['approval', 'question']),
    tool: z.string().check(z.maxLength(ANSWER_WORD_MAX)),
    text: z.string().check(z.maxLength(ANSWER_TEXT_MAX)),
    hidden: z._default(z.int().check(z.minimum(0)), 0),
    questions: z.array(questionSchema).check(z.maxLength(ANSWER_QUESTIONS_MAX)),
    since: time,
    keysFrom: time,
    serial: z.boolean(),
    deadline: time,
  }),
  z.object({
    state: z.literal('answered'),
    request: cut(ROW_TEXT_MAX.word),
    answer: z.nullable(cut(ROW_TEXT_MAX.detail)),
    from: z.nullable(cut(ROW_TEXT_MAX.word)),
    at: time,
  }),
  z.object({ state: z.literal('elsewhere'), request: cut(ROW_TEXT_MAX.word), at: time }),
  z.object({ state: z.literal('unavailable'), why: cut(ROW_TEXT_MAX.detail) }),
]);

const answerRequestId = z.string().check(z.regex(/^req_[0-9a-f]{24}$/));
const answerDigest = z.string().check(z.regex(/^[0-9a-f]{64}$/));
const answerLabel = z.string().check(z.maxLength(ANSWER_LABEL_MAX));
/** An answer: allow, deny with words for the agent, or one list of chosen labels per question. */
export const answerDecisionSchema = z.discriminatedUnion('behavior', [
  z.object({ behavior: z.literal('allow') }),
  z.object({ behavior: z.literal('deny'), message: z.nullable(z.string().check(z.maxLength(ANSWER_QUESTION_MAX))) }),
  z.object({
    behavior: z.literal('answers'),
    answers: z.array(z.array(answerLabel).check(z.maxLength(ANSWER_OPTIONS_MAX))).check(z.minLength(1), z.maxLength(ANSWER_QUESTIONS_MAX)),
  }),
]);
export type AnswerDecision = z.infer<typeof answerDecisionSchema>;

const rowSchema = z.object({
  key: z.string(),
  // A row from a Lookout before hosts existed has no `host`: it is that machine's own.
  host: z._default(z.nullable(cut(ROW_TEXT_MAX.word)), null),
  // Which ids exist is the provider registry's word: the state lists them (`providers`).
  provider: cut(ROW_TEXT_MAX.word),
  sessionId: cut(ROW_TEXT_MAX.id),
  title: z.nullable(cut(ROW_TEXT_MAX.title)),
  cwd: folder,
  branch: z.nullable(cut(ROW_TEXT_MAX.branch)),
  lastActivityAt: nullableTime,
  observed: z.object({
    state: z.enum(STATES),
    reason: z.enum(REASONS),
    detail: z.nullable(cut(ROW_TEXT_MAX.detail)),
    source: cut(ROW_TEXT_MAX.word),
    confidence: z.enum(CONFIDENCES),
    at: nullableTime,
  }),
  children: z.object({ liveness: z.enum(CHILD_LIVENESS), live: z.number() }),
  review: z.object({ state: z.enum(REVIEW_STATES), by: z.nullable(cut(ROW_TEXT_MAX.word)), at: nullableTime, newActivitySince: z.boolean() }),
  workflow: z.enum(WORKFLOWS),
  claim: z.nullable(
    z.object({ kind: z.enum(CLAIM_KINDS), since: time, expiresAt: nullableTime, ambiguous: z.boolean(), detail: z.nullable(cut(ROW_TEXT_MAX.detail)) }),
  ),
  muted: z.nullable(z.object({ until: nullableTime })),
  historical: z.boolean(),
  triageRank: z.number(),
  band: z.enum(BANDS),
  idleStale: z.boolean(),
  // §13 (issue 23): a row from a Lookout before answering has none.
  answer: z._default(z.nullable(rowAnswerSchema), null),
  // Issue 46: a row from a Lookout before usage limits has none.
  resetsAt: z._default(nullableTime, null),
});

export const snapshotSchema = z.object({
  schemaVersion: z.number(),
  now: time,
  attention: z.object({
    count: z.number(),
    level: z.enum(LEVELS),
    needYou: z.number(),
    review: z.number(),
    working: z.number(),
    limited: z._default(z.number(), 0),
  }),
  sessions: z.array(rowSchema),
  // Issue 46 (R83): a snapshot from a Lookout before usage limits has none.
  limits: z._default(
    z
      .array(
        z.object({
          provider: cut(ROW_TEXT_MAX.word),
          host: z._default(z.nullable(cut(ROW_TEXT_MAX.word)), null),
          key: cut(ROW_TEXT_MAX.id),
          windows: z
            .array(z.object({ name: cut(ROW_TEXT_MAX.word), usedPercent: z.number(), windowMinutes: z.nullable(z.number()), resetsAt: nullableTime, at: time }))
            .check(z.maxLength(8)),
        }),
      )
      .check(z.maxLength(50)),
    [],
  ),
});

/** One dismissible line the runtime wants the user to see (a store kept aside, no notifications). */
const problemSchema = z.object({ id: z.string(), text: z.string() });
export type PopoverProblem = z.infer<typeof problemSchema>;

/** When the phone is sent to (R91): while away (the default), or always. */
export const PHONE_MODE_NAMES = ['away', 'always'] as const;

/** The settings the popover shows and edits (a view of settings.json). */
const settingsViewSchema = z.object({
  timings: z.record(z.string(), z.number()),
  // `limits` (issue 46): a state from before it has none, and reads as on.
  notifications: z.object({ enabled: z.boolean(), needsYou: z.boolean(), failed: z.boolean(), finished: z.boolean(), limits: z._default(z.boolean(), true) }),
  openCommand: z.nullable(z.array(z.string())),
  /**
   * Whether this popover may change settings that name a program to run (the open template):
   * only the app's own window may; a page served to a browser shows them read-only.
   */
  programsEditable: z.boolean(),
  /**
   * Whether this popover may answer a prompt (§13): the app's own window may; `lookout serve`'s
   * page only when settings.json says so (`answerFromBrowser`). `why` says why not, for the page.
   */
  answering: z.object({ allowed: z.boolean(), why: z.nullable(z.string()) }),
  /** The providers Lookout reads, from its registry: id, names, root folder and the variable that sets it, whether it has hooks. */
  providers: z.array(z.object({ id: z.string(), name: z.string(), shortName: z.string(), root: z.string(), rootVariable: z.string(), hooks: z.boolean() })),
  /** What `lookout hooks status` says, line by line. */
  hooks: z.array(z.string()),
  /** Other machines whose sessions are shown (settings.json `hosts`), and how each link stands. */
  hosts: z.array(z.object({ name: z.string(), destination: z.string(), state: z.string() })),
  /** The rules of settings.json, each with its words ("noisy v1: folder ~/work/noisy/** → mute"). */
  rules: z._default(z.array(z.object({ id: z.string(), line: z.string() })), []),
  /**
   * Quiet hours as they hold (issue 16): the daily window (null: none) and the time zone it is read
   * in, settings.json's when it names one this system knows (`named`), else this machine's. Not a
   * program: every popover may change them. A state without them shows none.
   */
  quietHours: z.optional(z.object({ window: z.nullable(z.object({ from: z.string(), to: z.string() })), zone: z.string(), named: z.boolean() })),
  /**
   * The phone channels of phone.json (issue 49, R90): each as a line with no token in it, its last
   * success or error, and when they send. Adding one names where notifications go, so only the
   * app's own window may (`programsEditable`). A state without it shows none.
   */
  phone: z.optional(
    z.object({
      mode: z.enum(PHONE_MODE_NAMES),
      channels: z.array(z.object({ id: z.string(), line: z.string(), health: z.string(), failing: z.boolean() })),
      problem: z.nullable(z.string()),
    }),
  ),
});
export type SettingsView = z.infer<typeof settingsViewSchema>;

/**
 * Quiet hours as a popover sets them (issue 16): two times of day, strictly "HH:MM", and nothing
 * else; the time zone stays as settings.json names it. From a time to the same is never quiet.
 */
export const quietWindowSchema = z
  .strictObject({
    from: z.string().check(z.regex(HHMM, 'quiet hours start: a time of day as HH:MM, like 22:00')),
    to: z.string().check(z.regex(HHMM, 'quiet hours end: a time of day as HH:MM, like 07:30')),
  })
  .check(z.refine((window) => window.from !== window.to, 'quiet hours: the start and the end are the same time, which is never quiet'));
export type QuietWindow = z.infer<typeof quietWindowSchema>;

/** A session key as commands and requests carry it. */
const key = z.string().check(z.minLength(3), z.maxLength(300));

/** Everything the popover shows, pushed on every change. */
export const popoverStateSchema = z
  .object({
    snapshot: snapshotSchema,
    problems: z.array(problemSchema),
    settings: settingsViewSchema,
    /**
     * A view the tray asked for (its menu's Settings…, its global key), numbered so each request is
     * seen once; `jump`: select the next session wanting attention, as Ctrl/⌘+J does (issue 15).
     */
    request: z.optional(z.object({ view: z.enum(['list', 'settings']), serial: z.number(), jump: z.optional(z.boolean()), select: z.optional(key) })),
  })
  .check(
    z.refine((state) => {
      // Every row's provider is one the registry listed: one list, from one place.
      const known = new Set(state.settings.providers.map((provider) => provider.id));
      return state.snapshot.sessions.every((row) => known.has(row.provider));
    }, 'a row names a provider the state does not list'),
  );
export type PopoverState = z.infer<typeof popoverStateSchema>;

/**
 * What the popover may ask, for the providers the registry lists. Every message is validated
 * before anything acts on it.
 */
export function commandSchemaFor(providerIds: readonly string[]) {
  return z.discriminatedUnion('type', [
    z.object({ type: z.literal('review'), key, state: z.enum(REVIEW_STATES) }),
    z.object({ type: z.literal('mute'), key, span: z.enum(['1h', 'tomorrow', 'forever']) }),
    z.object({ type: z.literal('unmute'), key }),
    // Rules per project (issue 16): a rule muting the row's folder; a rule removed by its id.
    z.object({ type: z.literal('mute-project'), key }),
    z.object({ type: z.literal('rule-remove'), id: z.string().check(z.minLength(1), z.maxLength(200)) }),
    z.object({
      type: z.literal('rule-add'),
      folder: z.string().check(z.regex(/^(\/|~\/)[^\0\n]{0,500}$/, "a rule's folder: an absolute folder or one under ~/")),
      action: z.enum(['mute', 'notify-never', 'notify-needs-you', 'review-after-finish']),
    }),
    z.object({ type: z.literal('select'), key: z.nullable(key) }),
    z.object({ type: z.literal('open'), key }),
    z.object({ type: z.literal('dismiss'), id: z.string().check(z.maxLength(200)) }),
    // §13: an answer to the prompt a row shows (the request and digest it showed), or "Answer in terminal".
    z.object({ type: z.literal('answer'), key, request: answerRequestId, digest: answerDigest, decision: answerDecisionSchema, via: z.enum(['key', 'click']) }),
    z.object({ type: z.literal('release'), key, request: answerRequestId }),
    z.object({
      type: z.literal('hooks'),
      action: z.enum(['install', 'uninstall']),
      provider: z.string().check(z.refine((id) => providerIds.includes(id), 'not a provider Lookout knows')),
    }),
    z.object({
      type: z.literal('settings'),
      notifications: z.optional(
        z.partial(z.object({ enabled: z.boolean(), needsYou: z.boolean(), failed: z.boolean(), finished: z.boolean(), limits: z.boolean() })),
      ),
      timings: z.optional(z.record(z.string(), z.int().check(z.nonnegative()))),
      openCommand: z.optional(z.nullable(z.array(z.string().check(z.minLength(1))))),
      // A window, or null for none (issue 16).
      quietHours: z.optional(z.nullable(quietWindowSchema)),
    }),
    // The phone (issue 49): when it sends, a channel removed, a test message, an ntfy topic added (the app's window only).
    z.object({ type: z.literal('phone-mode'), mode: z.enum(PHONE_MODE_NAMES) }),
    z.object({ type: z.literal('phone-remove'), id: z.string().check(z.minLength(1), z.maxLength(40)) }),
    z.object({ type: z.literal('phone-test') }),
    z.object({
      type: z.literal('phone-add-ntfy'),
      target: z.string().check(z.minLength(1), z.maxLength(300)),
      token: z.nullable(z.string().check(z.minLength(1), z.maxLength(200))),
    }),
  ]);
}
export type PopoverCommand = z.infer<ReturnType<typeof commandSchemaFor>>;

/**
 * What `lookout feed` reads on its standard input (issue 13): the user facts another machine's
 * Lookout records for this machine's sessions, which live here. Times are absolute (ISO).
 */
// `id`, when given, comes back as the `answered` of the snapshot line that follows the command
// (with `refused` and the reason when it was not carried out).
const commandId = z.optional(z.string().check(z.maxLength(100)));
export const feedCommandSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('review'), key, state: z.enum(REVIEW_STATES), id: commandId }),
  z.object({ type: z.literal('mute'), key, until: z.nullable(time.check(z.maxLength(40))), id: commandId }),
  z.object({ type: z.literal('unmute'), key, id: commandId }),
  z.object({ type: z.literal('visit'), key, id: commandId }),
  z.object({ type: z.literal('attention'), key, message: z.nullable(z.string().check(z.maxLength(500))), id: commandId }),
  // Where the session's live process runs, for opening it from another machine: answered with `pane`.
  z.object({ type: z.literal('locate'), key, id: commandId }),
  // §13: an answer to a prompt this machine's Lookout holds, decided here (R70–R75), or a let-go.
  // `via`: a click on the card that showed it, a key, or a typed command (R72's grace; a command by default).
  z.object({
    type: z.literal('answer'),
    key,
    request: answerRequestId,
    digest: answerDigest,
    decision: answerDecisionSchema,
    via: z.optional(z.enum(['key', 'click', 'command'])),
    id: commandId,
  }),
  z.object({ type: z.literal('release'), key, request: answerRequestId, id: commandId }),
]);
export type FeedCommand = z.infer<typeof feedCommandSchema>;

/**
 * The first line a Lookout writes to a host's feed (issue 26): its version. The feed answers on
 * its next snapshot line with `answered` and `lookout` (its own version and the feed protocol it
 * speaks). A feed from before the handshake refuses the line and goes on: no answer means "older".
 */
export const feedHelloSchema = z.object({
  type: z.literal('hello'),
  lookout: z.string().check(z.maxLength(40)),
  id: z.string().check(z.maxLength(100)),
  // The feed protocols the asking side reads (issue 27: 2, changes after a full snapshot); none means 1.
  protocols: z.optional(z.array(z.number()).check(z.maxLength(8))),
});
export type FeedHello = z.infer<typeof feedHelloSchema>;
/** What a feed says of itself in its answer to the hello. */
export const feedSelfSchema = z.object({ version: z.string().check(z.maxLength(40)), protocol: z.number() });
export type FeedSelf = z.infer<typeof feedSelfSchema>;

export const explainRequestSchema = z.object({ key });

/** The evidence trail of one row, for the Explain panel. */
export const explanationSchema = z.object({
  key: z.string(),
  decidedBy: z.string(),
  observations: z.array(z.object({ at: nullableTime, source: z.string(), state: z.string(), reason: z.string(), confidence: z.string(), rule: z.string() })),
  children: z.array(z.object({ name: z.string(), state: z.string(), detail: z.nullable(z.string()), at: nullableTime })),
  liveness: z.string(),
  skippedLines: z.number(),
});
export type Explanation = z.infer<typeof explanationSchema>;

/** What a command, an answer or a let-go came to: done, or refused and why (one shape wherever it travels; issue 48). */
export const commandResultSchema = z.object({ ok: z.boolean(), error: z.optional(z.string()) });
export type CommandResult = z.infer<typeof commandResultSchema>;

/** Validates a message from the other side; null with a reason when it does not fit. */
export function admit<T>(schema: z.ZodMiniType<T>, raw: unknown): { ok: true; value: T } | { ok: false; error: string } {
  const parsed = schema.safeParse(raw);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, error: z.prettifyError(parsed.error).split('\n')[0] ?? 'invalid message' };
}
