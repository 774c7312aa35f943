// What Lookout persists, as validated on every load: user facts (store.json) and settings.
// zod/mini: the same checks as zod at a fraction of the start-up cost (docs/performance.md).
import * as z from 'zod/mini';
import { providerIds } from '../../providers';
import { REVIEW_STATES, minutesOf } from '../../engine';

export const STORE_VERSION = 2;
export const SETTINGS_VERSION = 1;

const isoTime = z.iso.datetime({ offset: true });
const reviewState = z.enum(REVIEW_STATES);

export const storeSchema = z.object({
  schemaVersion: z.literal(STORE_VERSION),
  reviews: z.record(z.string(), z.object({ state: reviewState, at: isoTime, lastActivityAt: z.nullable(isoTime) })),
  mutes: z.record(z.string(), z.object({ at: isoTime, until: z.nullable(isoTime) })),
  visits: z.record(z.string(), z.object({ at: isoTime, fingerprint: z.nullable(z.string()) })),
  attentionCalls: z.record(z.string(), z.object({ at: isoTime, message: z.nullable(z.string()) })),
  ruleLedger: z.array(
    z.object({
      key: z.string(),
      ruleId: z.string(),
      version: z.int(),
      set: z.nullable(reviewState),
      mute: z.optional(z.boolean()),
      at: isoTime,
      lastActivityAt: z.nullable(isoTime),
    }),
  ),
  notified: z.array(z.object({ id: z.string(), at: isoTime })),
  // Notifications paused from the tray until then (issue 16); absent in older files.
  pausedUntil: z.optional(z.nullable(isoTime)),
  // Every answer given from Lookout, and every prompt it let go (R75, issue 23); absent in older files.
  answers: z.optional(
    z.array(
      z.object({
        key: z.string(),
        request: z.string(),
        requestAt: isoTime,
        tool: z.string(),
        shown: z.string(),
        // Characters of the prompt's text not kept in `shown` (issue 47); absent in older files.
        hidden: z.optional(z.int()),
        digest: z.string(),
        answer: z.enum(['allow', 'deny', 'options', 'released', 'elsewhere', 'expired']),
        message: z.nullable(z.string()),
        options: z.array(z.string()),
        from: z.nullable(z.string()),
        // The phone channel an answer came through (R95, issue 49); absent otherwise.
        channel: z.optional(z.string()),
        at: isoTime,
      }),
    ),
  ),
});
export type StoreFile = z.infer<typeof storeSchema>;

/** Version 1 (the first release): reviews had no activity mark, no attention calls, notified ids only. */
export const storeV1Schema = z.object({
  schemaVersion: z.literal(1),
  reviews: z.record(z.string(), z.object({ state: reviewState, at: isoTime })),
  mutes: z.record(z.string(), z.object({ at: isoTime, until: z.nullable(isoTime) })),
  visits: z.record(z.string(), z.object({ at: isoTime, fingerprint: z.nullable(z.string()) })),
  ruleLedger: z.array(z.object({ key: z.string(), ruleId: z.string(), version: z.int(), set: reviewState, at: isoTime })),
  notified: z.array(z.string()),
});

export function emptyStore(): StoreFile {
  return { schemaVersion: STORE_VERSION, reviews: {}, mutes: {}, visits: {}, attentionCalls: {}, ruleLedger: [], notified: [] };
}

const duration = z.string().check(z.regex(/^(\d+[smhdw])+$/, 'a duration like 30m, 2h or 7d'));
const ms = z.int().check(z.nonnegative());

const timingsSchema = z.partial(
  z.object({
    beat: z.int().check(z.minimum(250)),
    toolPendingGrace: ms,
    staleAfter: ms,
    historicalAfter: ms,
    claimExpiry: ms,
    hookWorkingHold: ms,
    finishedTick: ms,
    longJobFloor: ms,
    idleStaleAfter: ms,
    gitRefresh: z.int().check(z.minimum(1000)),
    ambiguousNotifyAfter: ms,
    // R61; 0 turns it off.
    escalateAfter: ms,
    notifyCoalesce: ms,
    // R72: a key answers a prompt only this long after it appeared; R73: how long "answered" holds.
    answerGrace: ms,
    answeredHold: ms,
    // R93, R91 (issue 49): a phone's tokens live this long; "away" after this long idle.
    phoneAnswerTtl: z.int().check(z.minimum(1000)),
    awayAfter: z.int().check(z.minimum(1000)),
  }),
);

/** A host's name: a word for keys and the popover ("devbox"); never a provider's id (checked on add). */
export const HOST_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;
/** An ssh destination: an alias, host or user@host — never starting with "-" (it would be an ssh option). */
export const SSH_DESTINATION = /^[A-Za-z0-9_.@%[\]:][A-Za-z0-9_.@%[\]:-]{0,253}$/;

const hostSchema = z.object({
  // Never a provider's id: `<provider>:…` must stay this machine's key.
  name: z.string().check(
    z.regex(HOST_NAME),
    z.refine((name) => !providerIds().includes(name), "a host may not be named after a provider's id"),
  ),
  destination: z.string().check(z.regex(SSH_DESTINATION)),
  port: z.optional(z.int().check(z.minimum(1), z.maximum(65535))),
  // The remote shell's command for Lookout there (the user's own words, run by their ssh login).
  command: z.optional(z.string().check(z.minLength(1), z.maxLength(1000), z.regex(/^[^\0\n\r]*$/))),
});
export type HostConfig = z.infer<typeof hostSchema>;

/** Ctrl+Shift+J; ⌘⇧J on macOS. */
export const DEFAULT_SHORTCUT = 'CommandOrControl+Shift+J';
/** One to four modifiers and one key, as Electron's accelerators name them. */
const ACCELERATOR =
  /^((CommandOrControl|CmdOrCtrl|Command|Cmd|Control|Ctrl|Alt|Option|AltGr|Shift|Super|Meta)\+){1,4}([A-Z0-9]|F([1-9]|1[0-9]|2[0-4])|Space|Tab|Enter|Return|Up|Down|Left|Right|Home|End|PageUp|PageDown|Escape|Esc|Backspace|Delete|Insert|Plus|PrintScreen|num[0-9]|numadd|numsub|nummult|numdiv|numdec|MediaPlayPause|MediaNextTrack|MediaPreviousTrack|MediaStop|VolumeUp|VolumeDown|VolumeMute|[`\-=[\];',./])$/i;

export const NOTIFY_LEVELS = ['never', 'needs-you', 'everything'] as const;

export const settingsSchema = z.object({
  schemaVersion: z._default(z.literal(SETTINGS_VERSION), SETTINGS_VERSION),
  timings: z._default(timingsSchema, {}),
  notifications: z._default(
    z.partial(z.object({ enabled: z.boolean(), needsYou: z.boolean(), failed: z.boolean(), finished: z.boolean(), limits: z.boolean() })),
    {},
  ),
  openCommand: z._default(z.nullable(z.array(z.string().check(z.minLength(1))).check(z.minLength(1))), null),
  // The tray app's global key (an Electron accelerator), or null for none (issue 15).
  // A key Electron would not take falls back to the default rather than setting the whole file aside.
  shortcut: z.catch(z._default(z.nullable(z.string().check(z.regex(ACCELERATOR))), DEFAULT_SHORTCUT), DEFAULT_SHORTCUT),
  // Quiet hours (issue 16): "HH:MM" to "HH:MM" in a time zone (null: this machine's), or null.
  quietHours: z._default(
    z.nullable(
      z.object({
        from: z.string().check(z.refine((text) => minutesOf(text) !== null, 'a time of day like 22:00')),
        to: z.string().check(z.refine((text) => minutesOf(text) !== null, 'a time of day like 07:30')),
        // Any zone name: one this runtime does not know falls back on load, alone (issue 25 item 14; Node's and Electron's zone data differ).
        timeZone: z._default(z.nullable(z.string().check(z.minLength(1), z.maxLength(100))), null),
      }),
    ),
    null,
  ),
  // R22's rules, and rules per project (issue 16): conditions in `when`, then at least one action.
  rules: z.optional(
    z.array(
      z
        .object({
          // Any name older files held; the command line and the popover make plain ones.
          id: z.string().check(z.minLength(1), z.maxLength(200), z.regex(/^[^\0-\x1f\x7f]*$/)),
          version: z.int().check(z.positive()),
          when: z.object({
            inactiveFor: z.optional(duration),
            // An absolute folder or one under ~, with * (within a name), ** (any depth) and ?.
            folder: z.optional(z.string().check(z.regex(/^(\/|~\/)[^\0\n]{0,500}$/))),
            provider: z.optional(z.string().check(z.minLength(1))),
            host: z.optional(z.string().check(z.minLength(1))),
            finished: z.optional(z.boolean()),
          }),
          set: z.optional(reviewState),
          mute: z.optional(z.boolean()),
          notify: z.optional(z.enum(NOTIFY_LEVELS)),
        })
        .check(z.refine((rule) => rule.set !== undefined || rule.mute === true || rule.notify !== undefined, 'a rule needs an action: set, mute or notify')),
    ),
  ),
  // Folders chosen per provider id (the registry's ids; an unknown id is kept and unused).
  roots: z._default(z.record(z.string(), z.string().check(z.minLength(1))), {}),
  // Whether `lookout serve`'s page may answer prompts (§13); off unless the user turns it on here.
  answerFromBrowser: z._default(z.boolean(), false),
  // Other machines whose sessions this one shows, over ssh (issue 13, docs/hosts.md).
  hosts: z._default(
    z.array(hostSchema).check(z.refine((hosts) => new Set(hosts.map((host) => host.name)).size === hosts.length, 'two hosts share a name')),
    [],
  ),
});
export type SettingsFile = z.infer<typeof settingsSchema>;
