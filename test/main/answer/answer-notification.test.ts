// Issue 23: a needs-you notification for an approval its answering hook brought to Lookout shows
// the exact command with Allow and Deny; Allow answers that request (R71) through the runtime.
import { describe, expect, it } from 'vitest';
import { findAnswerHook } from '../../../src/providers';
import { Runtime } from '../../../src/main/runtime/runtime';
import { flowingClock } from '../../../src/main/pipeline/clock';
import { writeSpool } from '../../../src/main/hooks/spool-writer';
import { spoolFolder } from '../../../src/main/store/home';
import { askLookout } from '../../../src/main/answer/hook-client';
import { fixtureHomes } from '../fixture-home';
import { waitFor } from '../../wait';
import { Catcher } from '../catching-notifier';

const { home } = fixtureHomes('lk-answer-notify-');
const NOW = Date.parse('2026-11-29T12:00:03.000Z');
const SESSION = 'c1a00000-0000-4000-8000-000000000010';

describe('notifications that answer (issue 23)', () => {
  it('R71 Allow on the notification that showed the exact command answers its request; the hook prints the allow', async () => {
    const env = home(['fresh-tool']);
    const lookoutHome = env.LOOKOUT_HOME ?? '';
    const clock = flowingClock(NOW);
    const catcher = new Catcher();
    const problems: string[] = [];
    const runtime = new Runtime({ env, clock, notifier: catcher, onProblem: (line) => problems.push(line), hosts: false });
    await runtime.start();
    try {
      const hook = findAnswerHook('claude-answer')?.hook;
      if (hook === undefined) throw new Error('Claude has an answering hook');
      const payload = {
        hook_event_name: 'PermissionRequest',
        session_id: SESSION,
        cwd: '/home/me/app',
        tool_name: 'Bash',
        tool_input: { command: 'npm test' },
      };
      // As Claude runs them: the spool hook records the prompt, the answering hook brings it.
      writeSpool(spoolFolder(lookoutHome), 'claude', 'hook', JSON.stringify(payload), clock());
      const printed = askLookout(lookoutHome, hook, payload, 60_000);
      const sent = await waitFor(
        'a notification',
        () => catcher.sent.find((item) => item.plan.keys.includes(`claude:${SESSION}`)),
        () => problems.join('\n'),
      );
      expect(sent.plan.body).toBe('Bash: npm test');
      expect(sent.plan.answer?.key).toBe(`claude:${SESSION}`);
      sent.act('allow');
      expect(await printed).toBe('{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}\n');
      expect(problems.filter((line) => line.includes('was not sent'))).toEqual([]);
    } finally {
      await runtime.dispose();
    }
  });
});
