// Issue 47 item 8: when the Lookout that owns the answer channel exits (a short `lookout feed`, a
// terminal `watch`), another Lookout still running takes the channel over on its beat, and the
// hooks' prompts reach it and are answered; while the owner lives, it is left alone.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findAnswerHook } from '../../../src/providers';
import { Runtime } from '../../../src/main/runtime/runtime';
import { flowingClock } from '../../../src/main/pipeline/clock';
import { writeSpool } from '../../../src/main/hooks/spool-writer';
import { spoolFolder } from '../../../src/main/store/home';
import { askLookout } from '../../../src/main/answer/hook-client';
import { AnswerChannel } from '../../../src/main/answer/channel-server';
import { socketPath, tokenPath } from '../../../src/main/answer/paths';
import { fixtureHomes } from '../fixture-home';
import { waitFor } from '../../wait';
import { Catcher } from '../catching-notifier';

const { home } = fixtureHomes('lk-answer-take-');
const NOW = Date.parse('2026-11-29T12:00:03.000Z');
const SESSION = 'c1a00000-0000-4000-8000-000000000010';

describe('issue 47 item 8', () => {
  it('issue 47 item 8: the owner of the answer channel exits; the Lookout still running takes it over within a beat and answers', async () => {
    const env = home(['fresh-tool']);
    const lookoutHome = env.LOOKOUT_HOME ?? '';
    const clock = flowingClock(NOW);
    const problems: string[] = [];
    const owner = new Runtime({ env, clock, notifier: new Catcher(), onProblem: (line) => problems.push(line), hosts: false });
    await owner.start();
    const catcher = new Catcher();
    const tray = new Runtime({ env, clock, notifier: catcher, onProblem: (line) => problems.push(line), hosts: false });
    let ownerStopped = false;
    try {
      await tray.start();
      const token = (): string | null => (existsSync(tokenPath(lookoutHome)) ? tokenPath(lookoutHome) : null);
      expect(token()).not.toBeNull();
      const firstToken = readFileSync(tokenPath(lookoutHome), 'utf8');
      // The owner lives: a Lookout that is not the owner leaves its channel alone, on start and on a take-over.
      const other = new AnswerChannel(lookoutHome, { message: () => undefined, closed: () => undefined });
      expect(await other.start()).toEqual({ kind: 'elsewhere' });
      expect(await other.takeOver()).toEqual({ kind: 'elsewhere' });
      await other.stop();
      expect(readFileSync(tokenPath(lookoutHome), 'utf8')).toBe(firstToken);
      await owner.dispose();
      ownerStopped = true;
      expect(existsSync(tokenPath(lookoutHome))).toBe(false);
      // The still-running Lookout takes the channel over on its own beat.
      await waitFor(
        'the channel taken over',
        () => (existsSync(tokenPath(lookoutHome)) && existsSync(socketPath(lookoutHome)) ? true : undefined),
        () => problems.join('\n'),
        { timeout: 10_000 },
      );
      const hook = findAnswerHook('claude-answer')?.hook;
      if (hook === undefined) throw new Error('Claude has an answering hook');
      const payload = {
        hook_event_name: 'PermissionRequest',
        session_id: SESSION,
        cwd: '/home/me/app',
        tool_name: 'Bash',
        tool_input: { command: 'npm test' },
      };
      writeSpool(spoolFolder(lookoutHome), 'claude', 'hook', JSON.stringify(payload), clock());
      const printed = askLookout(lookoutHome, hook, payload, 60_000);
      const sent = await waitFor(
        'a notification that answers',
        () => catcher.sent.find((item) => item.plan.answer?.key === `claude:${SESSION}`),
        () => problems.join('\n'),
      );
      sent.act('allow');
      expect(await printed).toBe('{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}\n');
      expect(problems.filter((line) => line.includes('answering prompts from Lookout is off'))).toEqual([]);
    } finally {
      if (!ownerStopped) await owner.dispose();
      await tray.dispose();
    }
  }, 60_000);
});
