// Carries out an open plan: each step spawned with argv, detached, never through a shell.
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OpenPlan, OpenStep } from './plan';

function start(step: OpenStep): Promise<void> {
  const [command, ...args] = step.argv;
  if (command === undefined) return Promise.reject(new Error('empty command'));
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: step.cwd ?? undefined,
      detached: true,
      stdio: 'ignore',
      shell: false,
      env: step.env === undefined ? process.env : { ...process.env, ...step.env },
    });
    child.once('error', (error) => reject(new Error(`could not run ${command}: ${error.message}`)));
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}

/** The steps with any script written out (macOS Terminal runs a .command file). */
function materialize(plan: OpenPlan, home: string): OpenStep[] {
  if (plan.kind === 'none') return [];
  if (plan.kind !== 'terminal' || plan.script === null) return plan.steps;
  const folder = join(home, 'open');
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const path = join(folder, plan.script.name);
  writeFileSync(path, plan.script.text, { mode: 0o700 });
  chmodSync(path, 0o700);
  return plan.steps.map((step) => ({ ...step, argv: step.argv.map((part) => (part === '{script}' ? path : part)) }));
}

export async function runPlan(plan: OpenPlan, home: string): Promise<void> {
  if (plan.kind === 'none') throw new Error(plan.reason);
  const steps = materialize(plan, home);
  if (plan.kind === 'tmux-pane') {
    // Selecting the pane must work; switching a client is best effort (there may be none attached).
    for (const [index, step] of steps.entries()) {
      try {
        await start(step);
      } catch (error) {
        if (index < 2) throw error;
      }
    }
    return;
  }
  for (const step of steps) await start(step);
}

/** What `open` did, and — when the session's process was found but not its terminal — what was tried. */
export function openedLine(key: string, plan: OpenPlan): string {
  switch (plan.kind) {
    case 'focus':
      return `${key}: focused in ${plan.terminal}${plan.note === null ? '' : ` (${plan.note})`}`;
    case 'terminal':
    case 'folder':
    case 'none':
      return `${key}: opened (${plan.kind})${plan.tried === undefined ? '' : `; its own terminal could not be focused: ${plan.tried.join('; ')}`}`;
    case 'template':
    case 'tmux-pane':
      return `${key}: opened (${plan.kind})`;
  }
}
