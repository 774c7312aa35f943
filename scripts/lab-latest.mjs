// npm run lab:latest — the live lab against the newest published version of each agent: installs
// them into a scratch folder, runs the same scenarios, and prints a table (agent, pinned → latest,
// each check's result) and the record kinds the newer versions wrote that the pinned ones did not
// (test/live/known-records.json). `--known <inventory.jsonl>` rewrites that file from a pinned run.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const lab = join(root, 'test', 'live');
const knownFile = join(lab, 'known-records.json');
const pinned = JSON.parse(readFileSync(join(lab, 'package.json'), 'utf8')).dependencies;
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** The agents' kinds of record, by agent, from an inventory file the lab appended to. */
function kindsOf(inventory) {
  const byAgent = {};
  if (!existsSync(inventory)) return byAgent;
  for (const line of readFileSync(inventory, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const entry = JSON.parse(line);
    byAgent[entry.agent] = [...new Set([...(byAgent[entry.agent] ?? []), ...entry.kinds])].sort();
  }
  return byAgent;
}

const knownAt = process.argv.indexOf('--known');
if (knownAt !== -1) {
  const inventory = process.argv[knownAt + 1];
  if (inventory === undefined) {
    console.error('lab:latest: --known needs the inventory file of a pinned run (LOOKOUT_LAB_INVENTORY)');
    process.exit(2);
  }
  writeFileSync(knownFile, `${JSON.stringify(kindsOf(inventory), null, 2)}\n`);
  console.log(`wrote ${knownFile}`);
  process.exit(0);
}

const scratch = mkdtempSync(join(tmpdir(), 'lookout-lab-latest-'));
const latest = Object.fromEntries(Object.keys(pinned).map((name) => [name, 'latest']));
writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'lookout-lab-latest', private: true, dependencies: latest }, null, 2));
console.log(`lab:latest: installing the newest ${Object.keys(pinned).join(', ')} into ${scratch}`);
execFileSync(npm, ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: scratch, stdio: 'inherit' });

const version = (name) => JSON.parse(readFileSync(join(scratch, 'node_modules', name, 'package.json'), 'utf8')).version;
const report = join(scratch, 'report.json');
const inventory = join(scratch, 'inventory.jsonl');
const run = spawnSync(
  process.execPath,
  [
    join(root, 'node_modules', 'vitest', 'vitest.mjs'),
    'run',
    '-c',
    'vitest.live.config.ts',
    '--reporter=dot',
    '--reporter=json',
    `--outputFile.json=${report}`,
  ],
  {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, LOOKOUT_LAB_MODULES: join(scratch, 'node_modules'), LOOKOUT_LAB_INVENTORY: inventory },
  },
);

const results = existsSync(report) ? JSON.parse(readFileSync(report, 'utf8')).testResults : [];
const known = existsSync(knownFile) ? JSON.parse(readFileSync(knownFile, 'utf8')) : {};
const seen = kindsOf(inventory);
const agentOf = {
  '@anthropic-ai/claude-code': 'claude',
  '@openai/codex': 'codex',
  'opencode-ai': 'opencode',
  '@github/copilot': 'copilot',
  '@kilocode/cli-linux-x64': 'kilo',
  '@factory/cli-linux-x64': 'droid',
  '@cline/cli-linux-x64': 'cline',
  '@google/gemini-cli': 'gemini',
  '@qwen-code/qwen-code': 'qwen',
  '@mariozechner/pi-coding-agent': 'pi',
};

console.log('\n| agent | pinned → latest | check | result |\n|---|---|---|---|');
for (const [name, pin] of Object.entries(pinned)) {
  const id = agentOf[name] ?? name;
  // The agent's own file and its topic files beside it (claude-answer, claude-limit…).
  const files = results.filter((suite) => new RegExp(`[/\\\\]${id}(-[a-z]+)*\\.live\\.test\\.ts$`).test(suite.name));
  const checks = files.flatMap((file) => file.assertionResults ?? []);
  if (checks.length === 0) console.log(`| ${name} | ${pin} → ${version(name)} | (no checks ran) | — |`);
  for (const check of checks) console.log(`| ${name} | ${pin} → ${version(name)} | ${check.title} | ${check.status} |`);
}
console.log('\nRecord kinds the newest versions wrote that the pinned ones did not:');
let novel = 0;
for (const [agent, kinds] of Object.entries(seen)) {
  const fresh = kinds.filter((kind) => !(known[agent] ?? []).includes(kind));
  novel += fresh.length;
  console.log(`- ${agent}: ${fresh.length === 0 ? 'none' : fresh.join(', ')}`);
}
if (Object.keys(seen).length === 0) console.log('- (no inventory: no scenario ran)');
process.exit(run.status === 0 && novel === 0 ? 0 : 1);
