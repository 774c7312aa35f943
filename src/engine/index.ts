// The engine's public surface: what providers, the runtime and the popover may import.
export * from './vocabulary';
export * from './timings';
export * from './evidence';
export * from './facts';
export * from './duration';
export * from './row';
export type { Claim } from './claims';
export type { NotificationPlan, NotifyCandidate } from './notify';
export { claimsToNotify, planNotification } from './notify';
export type { NotificationAction } from './notification-actions';
export type { QuietHours } from './quiet';
export { FOLDER_GLOB_MAX, globMatch, literalGlob, ruleLine } from './rules';
export { inQuietHours, isQuiet, knownZone, minutesOf, nextLocal } from './quiet';
export { ANSWER_ACTIONS, NOTIFICATION_ACTIONS, actionLabel, buttonsFor, rowClaimId, stillNotified } from './notification-actions';
export type { DerivedSession } from './session';
export { mayWantWorkingTree } from './session';
export type { AnswerView } from './answer';
export { movedOnSince } from './answer';
export { evaluate } from './evaluate';
export type { Evaluation } from './evaluate';
// The contract (zod schemas) is imported from './contract' directly: building it costs every command's start-up.
export type { HostStatus, HostView } from './hosts';
export { hostRows, hostState, mergeHosts, remoteCandidates, splitHostKey } from './hosts';
export { plainEqual } from './plain-equal';
export { anyAfter } from './clamp';
export { resetWords } from './reset-words';
