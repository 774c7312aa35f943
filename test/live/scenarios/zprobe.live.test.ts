import { it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { claude } from '../lab/agents/claude';
import { Scenario } from '../lab/scenario';
it('probe', async () => {
  const lab = await Scenario.start(claude, { name: 'probe', hooks: true, replies: [{ kind: 'tool', call: claude.tools.question('Which colour?', ['Red', 'Blue'])! }] });
  await lab.prompt('ask me');
  await lab.tmux.waitForScreen('q', (screen) => /Which colour/.test(screen));
  await new Promise((r) => setTimeout(r, 4000));
  console.log(execFileSync('bash', ['-c', `cat ${lab.home.lookoutHome}/spool/* | cut -c1-100,300-700; tail -2 ${lab.home.home}/.claude/projects/*/*.jsonl | cut -c1-1500; cat ${lab.home.home}/.claude/sessions/*.json`], { encoding: 'utf8' }));
  console.log(lab.rows().map((r) => JSON.stringify(r.observed)));
  console.log(lab.tmux.screen());
  await lab.end();
}, 120000);
