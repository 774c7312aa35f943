// Claude Code answered from the phone (issue 49, R90–R95): the real TUI and its PermissionRequest
// hook, `lookout phone add` as a person types it, `lookout watch --phone` beside it, and an ntfy
// stand-in on 127.0.0.1 whose taps are what the ntfy phone app does with an `http` action.
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claude } from '../lab/agents/claude';
import { modelReceives, waitingHooks } from '../lab/answering';
import { lookout } from '../lab/lookout';
import { installed, scenarios, suiteName } from '../lab/suite';
import type { NtfyMessage } from '../../main/phone/ntfy-standin';
import { NtfyStandin } from '../../main/phone/ntfy-standin';
import { waitFor } from '../../wait';

const ENTRY = 'claude-answer';
const TOPIC = 'lookout-lab-phone';

describe.skipIf(!installed(claude))(`${suiteName(claude)}: answering from the phone`, () => {
  const start = scenarios(claude);
  const phone = new NtfyStandin();
  beforeAll(async () => {
    await phone.start();
  });
  afterAll(async () => {
    await phone.stop();
  });
  const shell = (command: string) => [
    { kind: 'tool' as const, call: claude.tools.guardedShell(command), text: 'Running it.' },
    { kind: 'text' as const, text: 'Done with it.' },
  ];
  /** `lookout phone add ntfy <server>/<topic>`, as docs/phone.md says to. */
  const addPhone = (env: NodeJS.ProcessEnv) => {
    const added = lookout(['phone', 'add', 'ntfy', `${phone.url}/${TOPIC}`], env);
    if (added.code !== 0) throw new Error(`lookout phone add: ${added.stdout}${added.stderr}`);
  };
  /** The phone message for this command, with its buttons. */
  const messageFor = (command: string) =>
    waitFor(
      `the phone shows "${command}" with Allow and Deny`,
      () => phone.messages.find((message) => message.topic === TOPIC && message.actions !== undefined && message.message.includes(command)),
      () => JSON.stringify(phone.messages.map((message) => [message.topic, message.title, message.message])),
    );
  /** The messages the phone got after this one (a reply to a tap, what was answered). */
  const after = (message: NtfyMessage) => phone.messages.slice(phone.messages.indexOf(message) + 1).filter((item) => item.topic === TOPIC);

  it('R92 R93 R95 Allow tapped on the phone runs the command; a replayed tap is refused with why; the audit names the phone', async () => {
    const lab = await start({
      name: 'phone-allow',
      hooks: true,
      watch: true,
      watchArgs: ['--phone'],
      beforeWatch: addPhone,
      replies: shell('touch from-phone.txt'),
    });
    await lab.prompt('make the file');
    await lab.tmux.waitForScreen('the permission prompt', claude.asksPermission);
    const sent = await messageFor('touch from-phone.txt');
    expect(sent.actions?.map((action) => action.label)).toEqual(['Allow', 'Deny']);
    expect(await phone.tap(sent, 'Allow')).toBe(200);
    await waitFor(
      'the command allowed from the phone ran',
      () => (existsSync(lab.projectFile('from-phone.txt')) ? true : undefined),
      () => lab.tmux.screen(),
    );
    await waitFor('the phone told it was allowed', () => after(sent).find((message) => /Allowed/.test(message.message)));
    // The same tap again (a replay): refused, and the phone is told why; nothing else is answered.
    expect(await phone.tap(sent, 'Allow')).toBe(200);
    await waitFor('the replayed tap refused with why', () => after(sent).find((message) => /Not sent: already answered/.test(message.message)));
    const done = await lab.expectRow('finished', (row) => row.observed.state === 'idle' && row.observed.reason === 'turn-finished');
    expect(lab.explain(done)).toMatch(/allowed from phone — req_[0-9a-f]+ \(Bash: touch from-phone\.txt.*through ntfy/);
    expect(waitingHooks(lab, ENTRY)).toEqual([]);
  });

  it("R92 an AskUserQuestion's options are the phone's buttons: a tap on one reaches the model as the answer", async () => {
    const question = claude.tools.question('Which colour should the phone badge be?', ['Red', 'Blue']);
    if (question === null) throw new Error('Claude has a question tool');
    const lab = await start({
      name: 'phone-question',
      hooks: true,
      watch: true,
      watchArgs: ['--phone'],
      beforeWatch: addPhone,
      replies: [
        { kind: 'tool', call: question },
        { kind: 'text', text: 'Noted.' },
      ],
    });
    await lab.prompt('ask me a question');
    await lab.tmux.waitForScreen('the question', (screen) => screen.includes('Which colour should the phone badge be?'));
    const sent = await messageFor('Which colour should the phone badge be?');
    expect(sent.actions?.map((action) => action.label)).toEqual(['Red', 'Blue']);
    expect(await phone.tap(sent, 'Blue')).toBe(200);
    await modelReceives(lab, 'Blue');
    await waitFor('the phone told what was answered', () => after(sent).find((message) => /Answered "Blue"/.test(message.message)));
    const done = await lab.expectRow('finished', (row) => row.observed.state === 'idle');
    expect(lab.explain(done)).toMatch(/from phone/);
  });

  it('R73 R93 answered in the terminal first: a tap on the phone after it says so and sends nothing', async () => {
    const lab = await start({
      name: 'phone-late',
      hooks: true,
      watch: true,
      watchArgs: ['--phone'],
      beforeWatch: addPhone,
      replies: shell('touch by-hand-first.txt'),
    });
    await lab.prompt('make the file');
    await lab.tmux.waitForScreen('the permission prompt', claude.asksPermission);
    const sent = await messageFor('touch by-hand-first.txt');
    await lab.approve();
    await waitFor('the command ran', () => (existsSync(lab.projectFile('by-hand-first.txt')) ? true : undefined));
    await waitFor(
      'the answering hook let go',
      () => (waitingHooks(lab, ENTRY).length === 0 ? true : undefined),
      () => lab.tmux.screen(),
    );
    expect(await phone.tap(sent, 'Deny')).toBe(200);
    const told = await waitFor('the late tap refused with why', () => after(sent).find((message) => /Not sent/.test(message.message)));
    expect(told.message).toMatch(/changed or was answered elsewhere|already answered|not open|answered in the terminal/);
    const done = await lab.expectRow('finished', (row) => row.observed.state === 'idle' && row.observed.reason === 'turn-finished');
    expect(lab.explain(done)).toMatch(/answered in the terminal — req_/);
    expect(lab.explain(done)).not.toMatch(/from phone/);
  });
});
