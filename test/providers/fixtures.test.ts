// Every fixture root, read by its provider's real parser, gives the rows its .meta.json names.
import { describe, expect, it } from 'vitest';
import { fixtures, rowAt, summary } from './fixture-roots';

for (const provider of ['claude', 'codex', 'copilot'] as const) {
  describe(`${provider} fixtures (§11)`, () => {
    const cases = fixtures(provider).flatMap((fixture) =>
      fixture.meta.checks.map(
        (check, index) => [`${fixture.name}${fixture.meta.checks.length > 1 ? ` #${index + 1}` : ''}: ${fixture.meta.shows}`, fixture, check] as const,
      ),
    );
    it.each(cases)('§11 %s', async (_label, fixture, check) => {
      const { row, rows } = await rowAt(provider, fixture.root, fixture.meta.sessionKey, Date.parse(check.now));
      expect(row, `rows: ${rows.map((item) => item.key).join(', ')}`).toBeDefined();
      if (row === undefined) return;
      expect(summary(row)).toEqual({ state: check.state, reason: check.reason, workflow: check.workflow, liveness: check.liveness, claim: check.claim });
      if (check.title !== undefined) expect(row.title).toBe(check.title);
      if (check.branch !== undefined) expect(row.branch).toBe(check.branch);
      expect(rows.filter((item) => item.key === row.key)).toHaveLength(1);
    });

    it('every fixture names the agent version it imitates', () => {
      for (const fixture of fixtures(provider)) expect(fixture.meta.imitates).toMatch(/^(Claude Code|Codex CLI|GitHub Copilot CLI) \d+\.\d+\.\d+$/);
    });
  });
}
