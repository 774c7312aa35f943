// Which claims to notify now, coalesced into one notification per evaluation (R40–R43).
import type { Claim } from './claims';
import type { NotificationSwitches, NotifyLevel } from './facts';
import type { Timings } from './timings';
import { NOTIFY_LOOKBACK_MS } from './timings';
import { projectName } from './row';
import { cutLine } from './text-cut';
import { resetWords } from './reset-words';
import { hiddenCount } from './visible-text';

export interface NotifyCandidate {
  key: string;
  /** The provider's short display name, from the registry ("Claude"). */
  providerName: string;
  cwd: string | null;
  branch: string | null;
  claim: Claim | null;
  muted: boolean;
  historical: boolean;
  /**
   * Whether the working tree a finish depends on has been read since the claim began. Until git
   * has answered, "finished" could still turn out "ready for review" (another claim), and the user
   * would hear of it twice: such a finish waits.
   */
  treeKnown: boolean;
  /** How much its rules let it notify (rules per project; 'everything' without one). */
  level?: NotifyLevel;
  /**
   * The prompt the row shows open to an answer from Lookout (§13), if any: an approval, or a
   * question of one choice, with its options' labels (R92: a phone offers them as buttons).
   */
  answer?: { request: string; digest: string; tool: string; text: string; options?: readonly string[] } | null;
  /**
   * A prompt raised by a hook of an agent whose answering hook follows it: its notification waits
   * one beat for the request, so the notification can carry Allow and Deny (issue 23).
   */
  answerExpected?: boolean;
}

/** Lines of a digest's body: past this, the last one says how many more. */
export const DIGEST_LINES = 5;

export interface NotificationPlan {
  /** Claim ids to add to the notified ledger once shown (R41). */
  claimIds: string[];
  keys: string[];
  title: string;
  body: string;
  /**
   * One session's approval, its exact command in the body: the notification offers Allow and Deny
   * (issue 23); or one question of one choice, its options named (R92: a phone offers each).
   */
  answer?: { key: string; request: string; digest: string; options?: readonly string[] };
}

/** A command longer than this, or on several lines, is not shown whole by a notification: no Allow there. */
export const NOTIFIED_COMMAND_MAX = 200;

/**
 * Whether a notification's one line shows this text as it is, whole (issue 47 item 6): short, and
 * nothing hidden or pushed out of sight: no control, bidi, invisible or unusual blank character
 * (a line break too), and blanks only single spaces between words, never a run, leading or trailing.
 */
function shownWhole(text: string, max: number): boolean {
  return text.length <= max && hiddenCount(text) === 0 && !/ {2}|^ | $/.test(text);
}
/** An option's label longer than this is not offered as a button. */
const NOTIFIED_OPTION_MAX = 60;
/** A tool's name longer than this is no tool's: its approval is told without Allow and Deny. */
const NOTIFIED_TOOL_MAX = 100;
/** How much of a folder's name, a branch and a detail a notification shows (issue 25 item 2: a 200 KB branch). */
const NOTIFIED_WHERE_MAX = 80;
const NOTIFIED_DETAIL_MAX = 200;

function wanted(claim: Claim, switches: NotificationSwitches): boolean {
  switch (claim.kind) {
    case 'needs-you':
      return switches.needsYou;
    case 'failed':
      return switches.failed;
    case 'limited':
    case 'limit-reset':
      return switches.limits;
    case 'ready-for-review':
    case 'finished':
      return switches.finished;
  }
}

/** R40 + R41: the claims that should notify now. */
export function claimsToNotify(
  candidates: readonly NotifyCandidate[],
  notified: ReadonlySet<string>,
  switches: NotificationSwitches,
  onScreen: string | null,
  now: number,
  timings: Timings,
): NotifyCandidate[] {
  if (!switches.enabled) return [];
  const toldLimits = limitGroupsTold(candidates, notified);
  return candidates.filter(({ key, providerName, claim, muted, historical, treeKnown, level = 'everything', answer = null, answerExpected = false }) => {
    if (claim === null || muted || historical || key === onScreen) return false;
    if (level === 'never' || (level === 'needs-you' && claim.kind !== 'needs-you')) return false;
    if ((claim.kind === 'finished' || claim.kind === 'ready-for-review') && !treeKnown) return false;
    if (notified.has(claim.id) || !wanted(claim, switches)) return false;
    // R82: one notice per provider and reset: a second session stopped by the same limit is not news.
    const group = limitGroup(providerName, claim);
    if (group !== null && toldLimits.has(group)) return false;
    if (claim.ambiguous) return now - claim.since >= timings.ambiguousNotifyAfter;
    // The answering hook's request follows its prompt by a Node start: a beat at most, then it is told without.
    if (claim.kind === 'needs-you' && answerExpected && answer === null && now - claim.since < timings.beat) return false;
    if (claim.kind === 'needs-you') return true;
    return now - claim.since <= NOTIFY_LOOKBACK_MS;
  });
}

function verb(claim: Claim): string {
  switch (claim.kind) {
    case 'needs-you':
      return claim.ambiguous ? 'may need you' : 'needs you';
    case 'failed':
      return 'failed';
    case 'limited':
      return 'stopped on a usage limit';
    case 'limit-reset':
      return 'can go on: its usage limit reset';
    case 'ready-for-review':
      return 'is ready for review';
    case 'finished':
      return 'finished';
  }
}

/** A claim's words on one line of a sane length ("" without any). */
function detailOf(claim: Claim): string {
  return claim.detail === null ? '' : cutLine(claim.detail, NOTIFIED_DETAIL_MAX);
}

/** Who and where: "Claude · api-server (main)". */
function whereLabel(candidate: NotifyCandidate): string {
  const folder = cutLine(projectName(candidate.cwd) ?? 'unknown folder', NOTIFIED_WHERE_MAX);
  const branch = candidate.branch === null ? '' : ` (${cutLine(candidate.branch, NOTIFIED_WHERE_MAX)})`;
  return `${cutLine(candidate.providerName, NOTIFIED_WHERE_MAX)} · ${folder}${branch}`;
}

/**
 * R82: the limit a claim belongs to, per provider (and machine, which its name carries) and reset
 * minute (one limit's reset, read from several sessions' records, differs by seconds); null for
 * other claims and for a limit without a reset, which is told per session.
 */
function limitGroup(providerName: string, claim: Claim): string | null {
  if ((claim.kind !== 'limited' && claim.kind !== 'limit-reset') || claim.resetsAt === undefined || claim.resetsAt === null) return null;
  return `${providerName}|${claim.kind}|${Math.floor(claim.resetsAt / 60_000)}`;
}

/** The limit groups some session of which was already told (its claim is in the ledger). */
function limitGroupsTold(candidates: readonly NotifyCandidate[], notified: ReadonlySet<string>): Set<string> {
  const told = new Set<string>();
  for (const { providerName, claim } of candidates) {
    if (claim === null || !notified.has(claim.id)) continue;
    const group = limitGroup(providerName, claim);
    if (group !== null) told.add(group);
  }
  return told;
}

/** One line for a provider's sessions a limit stopped (or let go) together (R82). */
function limitLine(providerName: string, claims: readonly Claim[]): string {
  const first = claims[0];
  const name = cutLine(providerName, NOTIFIED_WHERE_MAX);
  const count = claims.length;
  const sessions = count === 1 ? 'a session' : `${count} sessions`;
  if (first?.kind === 'limit-reset') return `${name}'s usage limit reset: ${sessions} stopped mid-task can go on`;
  const until = first?.resetsAt === undefined || first.resetsAt === null ? '' : ` until ${resetWords(first.resetsAt, first.since)}`;
  return `${name} stopped in ${sessions}: usage limit${until}`;
}

/** R42 + R43: one notification for everything gained in this beat. */
export function planNotification(due: readonly NotifyCandidate[]): NotificationPlan | null {
  const claims = due.flatMap((candidate) => (candidate.claim === null ? [] : [{ candidate, claim: candidate.claim }]));
  const first = claims[0];
  if (first === undefined) return null;
  const claimIds = claims.map(({ claim }) => claim.id);
  const keys = claims.map(({ candidate }) => candidate.key);
  const limits = limitGroups(claims);
  // R82: limits only, of one provider: one notice says it for all its sessions.
  if (limits.size === 1 && claims.every(({ claim }) => isLimit(claim))) {
    const [group] = limits.values();
    const where = claims.map(
      ({ candidate, claim }) => `${whereLabel(candidate)}${claim.kind === 'limited' && claim.detail !== null ? `: ${detailOf(claim)}` : ''}`,
    );
    if (group !== undefined) return { claimIds, keys, title: limitLine(group.providerName, group.claims), body: digestBody(where) };
  }
  if (claims.length === 1) {
    const title = `${whereLabel(first.candidate)} ${verb(first.claim)}`;
    const answer = first.claim.kind === 'needs-you' ? first.candidate.answer : null;
    const options = answer?.options;
    // A question of one choice: its text and options shown whole, each option a button where the face has them (R92).
    if (answer !== null && answer !== undefined && options !== undefined) {
      if (shownWhole(answer.text, NOTIFIED_COMMAND_MAX) && options.every((label) => shownWhole(label, NOTIFIED_OPTION_MAX)))
        return {
          claimIds,
          keys,
          title,
          body: `${answer.text} (${options.join(' / ')})`,
          answer: { key: first.candidate.key, request: answer.request, digest: answer.digest, options },
        };
      return { claimIds, keys, title, body: detailOf(first.claim) };
    }
    // Allow and Deny only beside the exact command, whole and read as it runs (never a digest, a shortened or padded line).
    if (answer !== null && answer !== undefined && shownWhole(answer.text, NOTIFIED_COMMAND_MAX) && shownWhole(answer.tool, NOTIFIED_TOOL_MAX)) {
      return {
        claimIds,
        keys,
        title,
        body: `${answer.tool}: ${answer.text}`,
        answer: { key: first.candidate.key, request: answer.request, digest: answer.digest },
      };
    }
    return { claimIds, keys, title, body: detailOf(first.claim) };
  }
  const needing = claims.filter(({ claim }) => claim.kind === 'needs-you').length;
  const limited = claims.filter(({ claim }) => isLimit(claim));
  const title =
    limited.length === claims.length
      ? limitsTitle(limited.map(({ claim }) => claim))
      : needing === claims.length
        ? `${claims.length} sessions need you`
        : needing > 0
          ? `${claims.length} sessions want you (${needing} need you)`
          : `${claims.length} sessions finished or failed`;
  // A desktop shows a few lines of a notification: the first sessions, then how many more (the click shows them all).
  // Limits are told once per provider (R82), the other claims a line each.
  const lines = [
    ...[...limits.values()].map((group) => limitLine(group.providerName, group.claims)),
    ...claims
      .filter(({ claim }) => !isLimit(claim))
      .map(({ candidate, claim }) => `${whereLabel(candidate)} ${verb(claim)}${claim.detail === null ? '' : `: ${detailOf(claim)}`}`),
  ];
  return { claimIds, keys, title, body: digestBody(lines) };
}

/** A desktop shows a few lines of a notification: the first, then how many more (the click shows them all). */
function digestBody(lines: readonly string[]): string {
  return lines.length <= DIGEST_LINES ? lines.join('\n') : [...lines.slice(0, DIGEST_LINES - 1), `and ${lines.length - DIGEST_LINES + 1} more`].join('\n');
}

/** Limits of several providers at once: "Usage limits stopped 2 sessions" / "Usage limits reset: 2 sessions can go on". */
function limitsTitle(claims: readonly Claim[]): string {
  const reset = claims.filter((claim) => claim.kind === 'limit-reset').length;
  if (reset === claims.length) return `Usage limits reset: ${claims.length} sessions can go on`;
  if (reset === 0) return `Usage limits stopped ${claims.length} sessions`;
  return `Usage limits: ${claims.length - reset} sessions stopped, ${reset} can go on`;
}

function isLimit(claim: Claim): boolean {
  return claim.kind === 'limited' || claim.kind === 'limit-reset';
}

/** The limit claims by provider and kind, in the order first seen. */
function limitGroups(claims: readonly { candidate: NotifyCandidate; claim: Claim }[]): Map<string, { providerName: string; claims: Claim[] }> {
  const groups = new Map<string, { providerName: string; claims: Claim[] }>();
  for (const { candidate, claim } of claims) {
    if (!isLimit(claim)) continue;
    const id = `${candidate.providerName}|${claim.kind}`;
    const group = groups.get(id) ?? { providerName: candidate.providerName, claims: [] };
    group.claims.push(claim);
    groups.set(id, group);
  }
  return groups;
}
