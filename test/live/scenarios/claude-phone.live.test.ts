// Claude Code answered from the phone (issue 49, R90–R95): the real TUI and its PermissionRequest
// hook, `lookout phone add` as a person types it, `lookout watch --phone` beside it, and an ntfy
// stand-in on 127.0.0.1 whose taps are what the ntfy phone app does with an `http` action.
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claude } from '../lab/agents/claude';
import { modelReceives, waitingHooks } from '../lab/answering';
import { LabPhone } from '../lab/phone';
import { emptyPhoneFile, savePhone } from '../../../src/main/phone/phone-config';
import { TelegramStandin } from '../../main/phone/telegram-standin';
import { installed, scenarios, suiteName } from '../lab/suite';
import { waitFor } from '../../wait';

const ENTRY = 'claude-answer';

describe.skipIf(!installed(claude))(`${suiteName(claude)}: answering from the phone`, () => {
  const start = scenarios(claude);
  const phone = new LabPhone();
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
  it('R92 R93 R95 Allow tapped on the phone runs the command; a replayed tap is refused with why; the audit names the phone', async () => {
    const lab = await start({
      name: 'phone-allow',
      hooks: true,
      watch: true,
      watchArgs: ['--phone'],
      beforeWatch: phone.add,
      replies: shell('touch from-phone.txt'),
    });
    await lab.prompt('make the file');
    await lab.tmux.waitForScreen('the permission prompt', claude.asksPermission);
    const sent = await phone.messageFor('touch from-phone.txt');
    expect(sent.actions?.map((action) => action.label)).toEqual(['Allow', 'Deny']);
    expect(await phone.tap(sent, 'Allow')).toBe(200);
    await waitFor(
      'the command allowed from the phone ran',
      () => (existsSync(lab.projectFile('from-phone.txt')) ? true : undefined),
      () => lab.tmux.screen(),
    );
    await phone.told(sent, /Allowed/);
    // The same tap again (a replay): refused, and the phone is told why; nothing else is answered.
    expect(await phone.tap(sent, 'Allow')).toBe(200);
    await phone.told(sent, /Not sent: already answered/);
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
      beforeWatch: phone.add,
      replies: [
        { kind: 'tool', call: question },
        { kind: 'text', text: 'Noted.' },
      ],
    });
    await lab.prompt('ask me a question');
    await lab.tmux.waitForScreen('the question', (screen) => screen.includes('Which colour should the phone badge be?'));
    const sent = await phone.messageFor('Which colour should the phone badge be?');
    expect(sent.actions?.map((action) => action.label)).toEqual(['Red', 'Blue']);
    expect(await phone.tap(sent, 'Blue')).toBe(200);
    await modelReceives(lab, 'Blue');
    await phone.told(sent, /Answered "Blue"/);
    const done = await lab.expectRow('finished', (row) => row.observed.state === 'idle');
    expect(lab.explain(done)).toMatch(/from phone/);
  });

  it('R73 R93 answered in the terminal first: a tap on the phone after it says so and sends nothing', async () => {
    const lab = await start({
      name: 'phone-late',
      hooks: true,
      watch: true,
      watchArgs: ['--phone'],
      beforeWatch: phone.add,
      replies: shell('touch by-hand-first.txt'),
    });
    await lab.prompt('make the file');
    await lab.tmux.waitForScreen('the permission prompt', claude.asksPermission);
    const sent = await phone.messageFor('touch by-hand-first.txt');
    await lab.approve();
    await waitFor('the command ran', () => (existsSync(lab.projectFile('by-hand-first.txt')) ? true : undefined));
    await waitFor(
      'the answering hook let go',
      () => (waitingHooks(lab, ENTRY).length === 0 ? true : undefined),
      () => lab.tmux.screen(),
    );
    expect(await phone.tap(sent, 'Deny')).toBe(200);
    const told = await phone.told(sent, /Not sent/);
    expect(told.message).toMatch(/changed or was answered elsewhere|already answered|not open|answered in the terminal/);
    const done = await lab.expectRow('finished', (row) => row.observed.state === 'idle' && row.observed.reason === 'turn-finished');
    expect(lab.explain(done)).toMatch(/answered in the terminal — req_/);
    expect(lab.explain(done)).not.toMatch(/from phone/);
  });

  it('R92 R93 through Telegram: Allow tapped in the chat runs the command and edits the message; a stranger and a replayed tap are refused', async () => {
    const telegram = new TelegramStandin();
    const api = await telegram.start();
    try {
      telegram.message(4242, 4242, '/start');
      // phone.json as `lookout phone add telegram` writes it (that command is driven against this stand-in in test/main/phone).
      const setUp = (env: NodeJS.ProcessEnv) => {
        const file = emptyPhoneFile();
        file.channels.push({ kind: 'telegram', id: 'telegram', botToken: telegram.token, chatId: '4242', userId: '4242', api });
        savePhone(env.LOOKOUT_HOME ?? '', file);
      };
      const lab = await start({
        name: 'phone-telegram',
        hooks: true,
        watch: true,
        watchArgs: ['--phone'],
        beforeWatch: setUp,
        replies: shell('touch from-chat.txt'),
      });
      await lab.prompt('make the file');
      await lab.tmux.waitForScreen('the permission prompt', claude.asksPermission);
      const sent = await waitFor(
        'the chat shows the command with Allow and Deny',
        () => telegram.sent.find((message) => message.keyboard.length > 0 && message.text.includes('touch from-chat.txt')),
        () => JSON.stringify(telegram.sent),
      );
      const keyboard = sent.keyboard.map((row) => [...row]);
      const stranger = telegram.tap(sent, 'Allow', { chat: 31337, user: 31337 });
      await waitFor('the stranger told no', () => telegram.answered.find((item) => item.id === stranger));
      expect(existsSync(lab.projectFile('from-chat.txt'))).toBe(false);
      telegram.tap(sent, 'Allow', { chat: 4242, user: 4242 });
      await waitFor(
        'the command allowed from the chat ran',
        () => (existsSync(lab.projectFile('from-chat.txt')) ? true : undefined),
        () => lab.tmux.screen(),
      );
      await waitFor('the message edited to say so', () => (/^Allowed ✓ from the phone/.test(sent.text) ? true : undefined));
      expect(sent.keyboard).toEqual([]);
      const replay = telegram.tap({ ...sent, keyboard }, 'Allow', { chat: 4242, user: 4242 });
      const told = await waitFor('the replay told why', () => telegram.answered.find((item) => item.id === replay));
      expect(told.text).toMatch(/^Not sent: already answered/);
      const done = await lab.expectRow('finished', (row) => row.observed.state === 'idle' && row.observed.reason === 'turn-finished');
      expect(lab.explain(done)).toMatch(/allowed from phone — req_[0-9a-f]+ \(Bash: touch from-chat\.txt.*through telegram chat 4242/);
    } finally {
      await telegram.stop();
    }
  });
});
