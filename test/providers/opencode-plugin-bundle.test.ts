// Issue 48: the opencode plugin is TypeScript (src/providers/opencode/plugin-source/), bundled at
// build time into the text `hooks install` writes. The generated module is held to its source,
// and the bundled plugin's answering runs against a real answer channel, as opencode would run it.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runFolder } from '../../src/main/answer/paths';
import { pluginText } from '../../src/providers/opencode/plugin';
import type { Lab } from './answer-owner';
import { openRequest, owner } from './answer-owner';
import { bundlePlugin, generatedModule, PLUGIN_GENERATED } from '../../scripts/plugin-bundle.mjs';
import { waitFor } from '../wait';

type Hooks = { event: (input: { event: unknown }) => Promise<void> };
interface Posted {
  url: string;
  path: { requestID: string };
  body?: unknown;
}

/** The plugin as `hooks install` writes it, loaded as opencode loads it, with a fake SDK client recording its replies. */
async function plugin(lab: Lab, provider = 'opencode'): Promise<{ hooks: Hooks; posted: Posted[] }> {
  const file = join(lab.home, `lookout-${provider}.mjs`);
  writeFileSync(file, pluginText(join(lab.home, 'spool'), runFolder(lab.home), provider));
  const module = (await import(pathToFileURL(file).href)) as { LookoutPlugin: (input: { directory: string; client: unknown }) => Promise<Hooks> };
  const posted: Posted[] = [];
  // The v1 SDK client's inner HTTP client: `post` is called as its method.
  const http = {
    calls: posted,
    post(this: { calls: Posted[] }, route: Posted): Promise<{ data: boolean }> {
      this.calls.push(route);
      return Promise.resolve({ data: true });
    },
  };
  return { hooks: await module.LookoutPlugin({ directory: '/home/me/app', client: { _client: http } }), posted };
}

describe('the opencode plugin, bundled from TypeScript (issue 48)', () => {
  it('issue 48: the generated plugin module is its source as the build bundles it (npm run build regenerates it)', async () => {
    expect(readFileSync(PLUGIN_GENERATED, 'utf8'), `${PLUGIN_GENERATED} is not its source bundled: run npm run build`).toBe(
      generatedModule(await bundlePlugin()),
    );
  });

  it("issue 48: permission.asked brings its draft to a real channel; the answer comes back through the client's reply route", async () => {
    const lab = await owner();
    const { hooks, posted } = await plugin(lab);
    const properties = {
      id: 'per_1',
      sessionID: 'ses_a',
      permission: 'bash',
      patterns: ['npm publish'],
      metadata: { command: 'npm publish --tag next' },
      always: ['npm *'],
    };
    await hooks.event({ event: { type: 'permission.asked', properties } });
    const held = await openRequest(lab);
    expect(held.draft).toEqual({
      provider: 'opencode',
      sessionId: 'ses_a',
      agentId: null,
      agentRequest: 'per_1',
      whole: createHash('sha256').update(JSON.stringify(properties)).digest('hex'),
      prompt: 'approval',
      tool: 'bash',
      text: 'npm publish --tag next',
      hidden: 0,
      questions: [],
    });
    expect(
      lab.broker.answer({ request: held.request.id, digest: held.request.digest, decision: { behavior: 'allow' }, from: 'popover', via: 'click' }),
    ).toEqual({ type: 'result', ok: true });
    await waitFor('the reply posted', () => posted[0]);
    expect(posted).toEqual([
      { url: '/permission/{requestID}/reply', path: { requestID: 'per_1' }, body: { reply: 'once' }, headers: { 'Content-Type': 'application/json' } },
    ]);
    expect(lab.records[0]).toMatchObject({ answer: 'allow', from: 'popover' });
  });

  it("issue 48: a question (a fork's provider) is cut to the channel's caps and answered with its labels; a long permission says how much is hidden", async () => {
    const lab = await owner();
    const { hooks, posted } = await plugin(lab, 'kilo');
    const questions = [{ question: 'Which colour?', header: 'Lab', options: [{ label: 'Red', description: 'r' }, { label: 'Blue' }, 'not an option'] }];
    await hooks.event({ event: { type: 'question.asked', properties: { id: 'que_1', sessionID: 'ses_q', questions } } });
    const held = await openRequest(lab);
    expect(held.draft).toMatchObject({ provider: 'kilo', prompt: 'question', tool: 'question', text: 'Which colour?', hidden: 0, agentRequest: 'que_1' });
    expect(held.draft.questions).toEqual([
      {
        question: 'Which colour?',
        header: 'Lab',
        multiple: false,
        options: [
          { label: 'Red', description: 'r' },
          { label: 'Blue', description: null },
        ],
      },
    ]);
    expect(
      lab.broker.answer({
        request: held.request.id,
        digest: held.request.digest,
        decision: { behavior: 'answers', answers: [['Blue']] },
        from: 'popover',
        via: 'click',
      }).ok,
    ).toBe(true);
    await waitFor('the answers posted', () => posted[0]);
    expect(posted[0]).toMatchObject({ url: '/question/{requestID}/reply', path: { requestID: 'que_1' }, body: { answers: [['Blue']] } });

    await hooks.event({
      event: {
        type: 'permission.asked',
        properties: { id: 'per_2', sessionID: 'ses_q', permission: 'edit', metadata: { filepath: 'big.txt', diff: 'x'.repeat(70_000) } },
      },
    });
    const long = await openRequest(lab);
    expect(long.draft.text).toHaveLength(64_000);
    expect(long.draft.hidden).toBe('big.txt\n\n'.length + 70_000 - 64_000);
  });

  it('issue 48: answered in the TUI first, the plugin tells the channel, which lets the request go as answered elsewhere', async () => {
    const lab = await owner();
    const { hooks, posted } = await plugin(lab);
    await hooks.event({
      event: { type: 'permission.asked', properties: { id: 'per_3', sessionID: 'ses_b', permission: 'bash', metadata: { command: 'ls' } } },
    });
    await openRequest(lab);
    await hooks.event({ event: { type: 'permission.replied', properties: { sessionID: 'ses_b', requestID: 'per_3', reply: 'once' } } });
    await waitFor('the request let go', () => lab.records[0]);
    expect(lab.records[0]).toMatchObject({ answer: 'elsewhere' });
    expect(posted).toEqual([]);
  });

  it('issue 48: a token file open to others is never read: nothing is asked', async () => {
    const lab = await owner();
    const { chmodSync } = await import('node:fs');
    chmodSync(join(runFolder(lab.home), 'answer.token'), 0o644);
    const { hooks } = await plugin(lab);
    await hooks.event({
      event: { type: 'permission.asked', properties: { id: 'per_4', sessionID: 'ses_c', permission: 'bash', metadata: { command: 'ls' } } },
    });
    await new Promise((done) => setTimeout(done, 300));
    expect(lab.broker.requests).toEqual([]);
  });
});
