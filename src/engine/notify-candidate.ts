// What the notifier is handed of a session with a claim (R40–R43): its candidate, kept with its
// derivation while the names, rules and answering it reads stay the same objects (issue 27).
import type { AnswerView } from './answer';
import { treeReadAt } from './evidence';
import type { Settings, UserFacts } from './facts';
import type { NotifyCandidate } from './notify';
import { notifyLevel } from './rules';
import type { DerivedSession } from './session';

/** What a candidate reads beyond its session (the evaluation's input). */
export interface CandidateInput {
  settings: Settings;
  /** Short display names by provider id, for notification text (the id otherwise). */
  providerNames?: Readonly<Record<string, string>>;
  /** Providers whose answering hook follows the hook that raises a prompt. */
  answering?: ReadonlySet<string>;
}

/** A session's notification candidate, kept with its derivation while what else it reads is the same (issue 27: a beat re-derives few of 2,000). */
interface KeptCandidate {
  readonly names: CandidateInput['providerNames'];
  readonly rules: Settings['rules'];
  readonly answering: CandidateInput['answering'];
  readonly candidate: NotifyCandidate;
}
const keptCandidates = new WeakMap<DerivedSession, KeptCandidate>();

export function candidateOf(session: DerivedSession, input: CandidateInput): NotifyCandidate {
  const kept = keptCandidates.get(session);
  if (kept !== undefined && kept.names === input.providerNames && kept.rules === input.settings.rules && kept.answering === input.answering)
    return kept.candidate;
  const candidate: NotifyCandidate = {
    key: session.key,
    providerName: input.providerNames?.[session.evidence.provider] ?? session.evidence.provider,
    cwd: session.evidence.cwd,
    branch: session.evidence.branch,
    claim: session.claim,
    muted: session.muted !== null,
    historical: session.historical,
    treeKnown: treeKnown(session),
    level: notifyLevel(input.settings.rules, { cwd: session.evidence.cwd, provider: session.evidence.provider, host: null }),
    answer: openAnswerable(session.answer),
    // Hooks installed (the session has hook evidence): the answering request should follow.
    answerExpected: input.answering?.has(session.evidence.provider) === true && session.evidence.direct.some((item) => item.kind === 'hook'),
  };
  keptCandidates.set(session, { names: input.providerNames, rules: input.settings.rules, answering: input.answering, candidate });
  return candidate;
}

/** The notified ledger as a set, once per facts object. */
const notifiedSets = new WeakMap<UserFacts, ReadonlySet<string>>();
export function notifiedSet(facts: UserFacts): ReadonlySet<string> {
  let set = notifiedSets.get(facts);
  if (set === undefined) {
    set = new Set(facts.notified);
    notifiedSets.set(facts, set);
  }
  return set;
}

/** The approval a notification may offer to answer: open, an approval shown whole (a question is the popover's). */
function openAnswerable(view: AnswerView | null): NotifyCandidate['answer'] {
  if (view?.state !== 'open' || view.request.hidden > 0) return null;
  const { request } = view;
  if (request.prompt === 'approval') return { request: request.id, digest: request.digest, tool: request.tool, text: request.text };
  // R92: one question of one choice can be answered by a tap on an option; several, or a multiple choice, only at the computer.
  const [question, ...more] = request.questions;
  if (question === undefined || more.length > 0 || question.multiple || question.options.length === 0 || question.options.length > TAP_OPTIONS_MAX) return null;
  return { request: request.id, digest: request.digest, tool: request.tool, text: question.question, options: question.options.map((option) => option.label) };
}

/** A question with more options than this is answered at the computer (a phone's row of buttons). */
const TAP_OPTIONS_MAX = 8;

/** A finish that depends on the working tree is told only once git was asked after it began. */
function treeKnown(session: DerivedSession): boolean {
  if (!session.wantsWorkingTree || session.evidence.cwd === null || session.claim === null) return true;
  const readAt = treeReadAt(session.evidence.workingTree);
  return readAt !== null && readAt >= session.claim.since;
}
