// The words a model provider uses when an account's allowance is spent (a usage limit), as
// against a per-minute rate limit ("slow down", "rate_limit_exceeded"), which is no limit (R80).
// Matched only in an agent's own saved error record, never in user text or tool output.

/** OpenAI's `insufficient_quota` and its message, Codex-style `usage_limit_reached`, credit words. */
const QUOTA_WORDS = /insufficient_quota|exceeded your current quota|quota exceeded|usage[ _]limit|insufficient[ _]credits|credit balance is too low/i;

/** Whether an agent's saved error words say the account's quota or usage limit is spent. */
export function saysQuotaSpent(words: string | null): boolean {
  return words !== null && QUOTA_WORDS.test(words);
}
