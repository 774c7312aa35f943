// Cline CLI in the lab: its native binary (a Bun build in @cline/cli-linux-x64), its
// openai-compatible provider pointed at the lab's model over chat completions, its data folder in
// the scenario's home, and a hub daemon of its own on a port no other scenario shares.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentLab } from './agent';
import { fileIn, packageVersion } from './installed';
import type { LabHome } from '../home';

const PLATFORM_PACKAGE = '@cline/cli-linux-x64';

/** The data folder under a lab home (CLINE_DATA_DIR). */
export const clineData = (home: LabHome): string => join(home.home, '.cline', 'data');

/**
 * A free loopback port, found by binding one (asked synchronously: prepare is). The hub listens on
 * a fixed port (25463) unless told: each scenario's hub gets its own, so parallel homes never meet.
 */
function freePort(): string {
  const script = "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})";
  return execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }).trim();
}

/** The pids in the hubs' discovery files (`locks/hub/<channel>.json`). */
function hubPids(home: LabHome): number[] {
  const folder = join(clineData(home), 'locks', 'hub');
  let names: string[];
  try {
    names = readdirSync(folder).filter((name) => /^[A-Za-z0-9_-]+\.json$/.test(name));
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    try {
      const pid = (JSON.parse(readFileSync(join(folder, name), 'utf8')) as { pid?: unknown }).pid;
      return typeof pid === 'number' && Number.isInteger(pid) && pid > 0 ? [pid] : [];
    } catch {
      return [];
    }
  });
}

export const cline: AgentLab = {
  id: 'cline',
  npmPackage: PLATFORM_PACKAGE,
  wire: 'chat',
  binary: (modules) => fileIn(modules, PLATFORM_PACKAGE, 'bin', 'cline'),
  version: (modules) => packageVersion(modules, PLATFORM_PACKAGE),
  prepare(home, model) {
    const settings = join(clineData(home), 'settings');
    mkdirSync(settings, { recursive: true });
    // What `cline auth -p openai-compatible -k dummy -m fake-model -b <url>/v1` writes.
    const provider = { provider: 'openai-compatible', apiKey: 'dummy', model: 'fake-model', baseUrl: `${model.url}/v1` };
    writeFileSync(
      join(settings, 'providers.json'),
      JSON.stringify(
        {
          version: 1,
          lastUsedProvider: 'openai-compatible',
          modes: {},
          providers: { 'openai-compatible': { settings: provider, updatedAt: new Date().toISOString(), tokenSource: 'manual' } },
        },
        null,
        2,
      ),
    );
    // The two notices its first runs show over the prompt box, as dismissed.
    writeFileSync(
      join(settings, 'cli-notices.json'),
      JSON.stringify({ shown: { 'cline-cli-cline-pass-intro': true, 'cline-cli-desktop-launch': true } }, null, 2),
    );
    return {
      CLINE_DATA_DIR: clineData(home),
      CLINE_HUB_PORT: freePort(),
      DISABLE_TELEMETRY: '1',
      DO_NOT_TRACK: '1',
    };
  },
  // The terminal UI, asking before every tool call (headless runs approve everything).
  args: ['-i', '--auto-approve', 'false'],
  ready: (screen) => /What can I do for you\?|Ask anything/.test(screen) && !/any other key to close/.test(screen),
  dismiss: (screen) => (/any other key to close/.test(screen) ? ['Escape'] : null),
  asksPermission: (screen) => /Cline needs permission/.test(screen),
  approveKeys: ['y'],
  tools: {
    guardedShell: (command) => ({ name: 'run_commands', input: { commands: command } }),
    question: (question, options) => ({ name: 'ask_question', input: { question, options: [...options] } }),
    subagent: (description, prompt) => ({ name: 'spawn_agent', input: { systemPrompt: `You help with: ${description}`, task: prompt } }),
  },
  // The session table and each session's messages (the hubs' event logs only matter with a hub running).
  recorded: ['.cline/data/db/sessions.db', '.cline/data/db/sessions.db-wal', '.cline/data/db/sessions.db-shm', '.cline/data/sessions'],
  daemonPids: hubPids,
};
