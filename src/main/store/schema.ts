// What Lookout persists, as validated on every load: user facts (store.json) and settings.
import { z } from 'zod';
import { REVIEW_STATES } from '../../engine';

export const STORE_VERSION = 2;
export const SETTINGS_VERSION = 1;

const isoTime = z.iso.datetime({ offset: true });
const reviewState = z.enum(REVIEW_STATES);

export const storeSchema = z.object({
  schemaVersion: z.literal(STORE_VERSION),
  reviews: z.record(z.string(), z.object({ state: reviewState, at: isoTime, lastActivityAt: isoTime.nullable() })),
  mutes: z.record(z.string(), z.object({ at: isoTime, until: isoTime.nullable() })),
  visits: z.record(z.string(), z.object({ at: isoTime, fingerprint: z.string().nullable() })),
  attentionCalls: z.record(z.string(), z.object({ at: isoTime, message: z.string().nullable() })),
  ruleLedger: z.array(
    z.object({ key: z.string(), ruleId: z.string(), version: z.number().int(), set: reviewState, at: isoTime, lastActivityAt: isoTime.nullable() }),
  ),
  notified: z.array(z.object({ id: z.string(), at: isoTime })),
});
export type StoreFile = z.infer<typeof storeSchema>;

/** Version 1 (the first release): reviews had no activity mark, no attention calls, notified ids only. */
export const storeV1Schema = z.object({
  schemaVersion: z.literal(1),
  reviews: z.record(z.string(), z.object({ state: reviewState, at: isoTime })),
  mutes: z.record(z.string(), z.object({ at: isoTime, until: isoTime.nullable() })),
  visits: z.record(z.string(), z.object({ at: isoTime, fingerprint: z.string().nullable() })),
  ruleLedger: z.array(z.object({ key: z.string(), ruleId: z.string(), version: z.number().int(), set: reviewState, at: isoTime })),
  notified: z.array(z.string()),
});

export function emptyStore(): StoreFile {
  return { schemaVersion: STORE_VERSION, reviews: {}, mutes: {}, visits: {}, attentionCalls: {}, ruleLedger: [], notified: [] };
}

const duration = z.string().regex(/^(\d+[smhdw])+$/, 'a duration like 30m, 2h or 7d');
const ms = z.number().int().nonnegative();

export const settingsSchema = z.object({
  schemaVersion: z.literal(SETTINGS_VERSION).default(SETTINGS_VERSION),
  timings: z
    .object({
      beat: ms.min(250),
      toolPendingGrace: ms,
      staleAfter: ms,
      historicalAfter: ms,
      claimExpiry: ms,
      hookWorkingHold: ms,
      finishedTick: ms,
      longJobFloor: ms,
      idleStaleAfter: ms,
      gitRefresh: ms.min(1000),
      ambiguousNotifyAfter: ms,
      notifyCoalesce: ms,
    })
    .partial()
    .default({}),
  notifications: z
    .object({ enabled: z.boolean(), needsYou: z.boolean(), failed: z.boolean(), finished: z.boolean() })
    .partial()
    .default({}),
  openCommand: z.array(z.string().min(1)).min(1).nullable().default(null),
  rules: z
    .array(z.object({ id: z.string().min(1), version: z.number().int().positive(), when: z.object({ inactiveFor: duration }), set: reviewState }))
    .optional(),
  roots: z.object({ claude: z.string().min(1), codex: z.string().min(1) }).partial().default({}),
});
export type SettingsFile = z.infer<typeof settingsSchema>;
