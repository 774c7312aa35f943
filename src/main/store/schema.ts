// What Lookout persists, as validated on every load: user facts (store.json) and settings.
// zod/mini: the same checks as zod at a fraction of the start-up cost (docs/performance.md).
import * as z from 'zod/mini';
import { REVIEW_STATES } from '../../engine';

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
  ruleLedger: z.array(z.object({ key: z.string(), ruleId: z.string(), version: z.int(), set: reviewState, at: isoTime, lastActivityAt: z.nullable(isoTime) })),
  notified: z.array(z.object({ id: z.string(), at: isoTime })),
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

export const timingsSchema = z.partial(
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
    notifyCoalesce: ms,
  }),
);

export const settingsSchema = z.object({
  schemaVersion: z._default(z.literal(SETTINGS_VERSION), SETTINGS_VERSION),
  timings: z._default(timingsSchema, {}),
  notifications: z._default(z.partial(z.object({ enabled: z.boolean(), needsYou: z.boolean(), failed: z.boolean(), finished: z.boolean() })), {}),
  openCommand: z._default(z.nullable(z.array(z.string().check(z.minLength(1))).check(z.minLength(1))), null),
  rules: z.optional(z.array(z.object({ id: z.string().check(z.minLength(1)), version: z.int().check(z.positive()), when: z.object({ inactiveFor: duration }), set: reviewState }))),
  // Folders chosen per provider id (the registry's ids; an unknown id is kept and unused).
  roots: z._default(z.record(z.string(), z.string().check(z.minLength(1))), {}),
});
export type SettingsFile = z.infer<typeof settingsSchema>;
