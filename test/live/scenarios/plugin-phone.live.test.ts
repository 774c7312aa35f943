// opencode and Kilo answered from the phone (issue 49, R92): the real TUI with Lookout's plugin
// bringing the permission or question to `lookout watch --phone`, and a tap on an ntfy stand-in.
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentLab } from '../lab/agents/agent';
import { kilo } from '../lab/agents/kilo';
import { opencode } from '../lab/agents/opencode';
import { modelReceives } from '../lab/answering';
import { LabPhone } from '../lab/phone';
import { installed, scenarios, suiteName } from '../lab/suite';
import { waitFor } from '../../wait';

function phoneSuite(agent: AgentLab): void {
  describe.skipIf(!installed(agent))(`${suiteName(agent)}: answering from the phone`, () => {
    const start = scenarios(agent);
    const phone = new LabPhone();
    beforeAll(() => phone.start());
    afterAll(() => phone.stop());

    it('R92 R95 a permission allowed by a tap on the phone runs the command; the audit names the phone', async () => {
      const lab = await start({
        name: 'phone-allow',
        hooks: true,
        watch: true,
        watchArgs: ['--phone'],
        beforeWatch: phone.add,
        replies: [
          { kind: 'tool', call: agent.tools.guardedShell('touch from-phone.txt') },
          { kind: 'text', text: 'Done with it.' },
        ],
      });
      await lab.prompt('make the file');
      await lab.tmux.waitForScreen('the permission prompt', agent.asksPermission);
      const sent = await phone.messageFor('touch from-phone.txt');
      expect(sent.actions?.map((action) => action.label)).toEqual(['Allow', 'Deny']);
      expect(await phone.tap(sent, 'Allow')).toBe(200);
      await waitFor(
        'the command allowed from the phone ran',
        () => (existsSync(lab.projectFile('from-phone.txt')) ? true : undefined),
        () => lab.tmux.screen(),
      );
      await phone.told(sent, /Allowed ✓ from the phone/);
      const done = await lab.expectRow('finished', (row) => row.observed.state === 'idle' && row.observed.reason === 'turn-finished');
      expect(lab.explain(done)).toMatch(/allowed from phone — req_[0-9a-f]+ \(bash: touch from-phone\.txt.*through ntfy/);
    });

    it("R92 a question's option tapped on the phone reaches the model", async () => {
      const question = agent.tools.question('Which colour should the phone badge be?', ['Red', 'Blue']);
      if (question === null) throw new Error(`${agent.id} has a question tool`);
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
      await modelReceives(lab, '=\\"Blue\\"');
      await phone.told(sent, /Answered "Blue"/);
    });
  });
}

phoneSuite(opencode);
phoneSuite(kilo);
