// How Droid's `agent_turn_outcome` ended a turn, from its `reason` (the enum in the 0.225.2 binary,
// grouped as Droid itself groups them: completed, cancelled or handed off, interrupted, failed).
import { oneLine } from '../jsonl/parse-record';
import { saysQuotaSpent } from '../quota-words';

export type TurnOutcome =
  | { kind: 'finished' }
  | { kind: 'interrupted' }
  | { kind: 'failed'; detail: string }
  /** The account's usage limit ended the turn (R80); Droid names no reset time. */
  | { kind: 'limited'; detail: string };

/** Droid's own words for each failure it names. */
const FAILURES: Readonly<Record<string, string>> = {
  error: 'the turn ended in an error',
  structured_output_missing: 'the structured output was missing',
  structured_output_invalid: 'the structured output was invalid',
  structured_output_schema_invalid: 'the structured output schema was invalid',
  model_usage_exhausted: 'usage is exhausted for the model request',
  model_authentication_failed: 'authentication failed for the model request',
  model_request_rejected: 'the model request was rejected',
  model_provider_unreachable: 'the model provider could not be reached',
  model_provider_unavailable: 'the model provider was unavailable',
  model_rate_limited: 'the model provider rate limited the request',
  prompt_rejected: 'the prompt was rejected',
  completion_persistence_failed: 'the completion could not be saved',
  no_approver_available: 'no one was there to approve a tool',
};

/**
 * `notice`: the error Droid showed the user just before (a `user_only` message such as "BYOK Error:
 * 500 …"), which says more than the reason.
 */
export function turnOutcome(reason: string | null, notice: string | null): TurnOutcome {
  switch (reason) {
    case 'completed':
    case 'spec_handoff':
      return { kind: 'finished' };
    case 'cancelled':
    case 'process_exit':
    // The user said no to a tool, and the turn stopped there.
    case 'permission_rejected':
      return { kind: 'interrupted' };
    // Droid's own word: a 402 from the model's server (0.225.2 maps 402 to it).
    case 'model_usage_exhausted':
      return { kind: 'limited', detail: noticeLine(notice) ?? FAILURES[reason] ?? reason };
    // A 429 Droid gave up retrying: a limit only where the provider's words it saved say the quota is spent.
    case 'model_rate_limited':
      if (notice !== null && saysQuotaSpent(notice)) return { kind: 'limited', detail: noticeLine(notice) ?? notice };
      return { kind: 'failed', detail: noticeLine(notice) ?? FAILURES[reason] ?? reason };
    default: {
      // A reason this version does not know still ended the turn: read as failed, so the user looks rather than reads "done".
      const known = reason === null ? undefined : FAILURES[reason];
      const words = known ?? `Droid ended the turn: ${reason ?? 'no reason given'}`;
      return { kind: 'failed', detail: noticeLine(notice) ?? words };
    }
  }
}

/** The notice's first line, as the row's detail. */
function noticeLine(notice: string | null): string | null {
  return notice === null ? null : oneLine(notice.split('\n')[0] ?? notice, 120);
}
