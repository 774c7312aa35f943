// Codex answered from the phone, opt-in (issue 49, R92): `hooks install --answer codex` makes its
// PermissionRequest hook wait on `lookout watch --phone`, and a tap on an ntfy stand-in allows.
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codex } from '../lab/agents/codex';
import { LabPhone } from '../lab/phone';
import { installed, scenarios, suiteName } from '../lab/suite';
import { waitFor } from '../../wait';

describe.skipIf(!installed(codex))(`${suiteName(codex)}: answering from the phone (--answer codex)`, () => {
  const start = scenarios(codex);
  const phone = new LabPhone();
  beforeAll(() => phone.start());
  afterAll(() => phone.stop());

  it('R92 R95 an approval allowed by a tap on the phone runs the command; Codex never showed its own prompt', async () => {
    const lab = await start({
      name: 'phone-allow',
      hooks: true,
      answer: true,
      watch: true,
      watchArgs: ['--phone'],
      beforeWatch: phone.add,
      replies: [
        { kind: 'tool', call: codex.tools.guardedShell('touch from-phone.txt') },
        { kind: 'text', text: 'Done with it.' },
      ],
    });
    await lab.prompt('make the file');
    const sent = await phone.messageFor('touch from-phone.txt');
    expect(sent.actions?.map((action) => action.label)).toEqual(['Allow', 'Deny']);
    expect(codex.asksPermission(lab.tmux.screen())).toBe(false);
    expect(await phone.tap(sent, 'Allow')).toBe(200);
    await waitFor(
      'the command allowed from the phone ran',
      () => (existsSync(lab.projectFile('from-phone.txt')) ? true : undefined),
      () => lab.tmux.screen(),
    );
    await phone.told(sent, /Allowed ✓ from the phone/);
    const done = await lab.expectRow('finished', (row) => row.observed.state === 'idle' && row.observed.reason === 'turn-finished');
    expect(lab.explain(done)).toMatch(/allowed from phone — req_[0-9a-f]+ \(Bash: touch from-phone\.txt.*through ntfy/);
  });
});
