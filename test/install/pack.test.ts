// Issue 26: the command line as a package. `npm pack` of this tree, installed with
// `npm install -g` into a scratch prefix (no build step: install scripts are not run), and the
// installed `lookout` reads real agent files, its SQLite module included.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NODE_MINIMUM, nodeAtLeast } from '../../src/main/text/version';

const ROOT = resolve(__dirname, '../..');
const CLINE = join(ROOT, 'test/fixtures/live/cline-3.0.65/approval/home/.cline/data');
const scratch = mkdtempSync(join(tmpdir(), 'lookout-pack-'));
const prefix = join(scratch, 'prefix');
let tarball = '';

function npm(args: string[], cwd: string): string {
  return execFileSync('npm', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** The installed command, run with a home of its own (nothing of this machine's agents read). */
function lookout(args: string[], env: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string } {
  const home = join(scratch, 'home');
  mkdirSync(home, { recursive: true });
  const run = spawnSync(join(prefix, 'bin', 'lookout'), args, {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: home, LOOKOUT_HOME: join(home, 'lookout'), ...env },
    timeout: 60_000,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

beforeAll(() => {
  // dist/ is built by the suite's global setup; packing must not rebuild it under running tests.
  const packed = JSON.parse(npm(['pack', '--ignore-scripts', '--json', '--pack-destination', scratch], ROOT)) as { filename: string }[];
  tarball = join(scratch, packed[0]?.filename ?? 'missing.tgz');
  // As a user would: from the registry (the npm cache first), install scripts not run.
  npm(['install', '--global', '--prefix', prefix, '--prefer-offline', '--ignore-scripts', tarball], scratch);
}, 240_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('issue 26: npm pack, npm install -g, lookout', () => {
  it('the tarball holds the bundles, not the sources, tests or the code cache of this machine', () => {
    const files = npm(['pack', '--ignore-scripts', '--dry-run', '--json'], ROOT);
    const paths = (JSON.parse(files) as { files: { path: string }[] }[])[0]?.files.map((file) => file.path) ?? [];
    expect(paths).toEqual(expect.arrayContaining(['dist/cli.cjs', 'dist/cli-main.cjs', 'dist/popover/app.js', 'package.json']));
    expect(paths.filter((path) => path.startsWith('src/') || path.startsWith('test/') || path.endsWith('.cache'))).toEqual([]);
  });

  it('installs with only the two runtime dependencies (the SQLite module with its prebuilt binaries, node-notifier)', () => {
    const modules = join(prefix, 'lib', 'node_modules', 'lookout', 'node_modules');
    const installed = readdirSync(modules).filter((name) => !name.startsWith('.'));
    expect(installed).toContain('@photostructure');
    // Nothing that would download a binary at install (electron, via menubar's peer dependency).
    expect(installed).not.toContain('electron');
    expect(installed).not.toContain('menubar');
    expect(existsSync(join(modules, '@photostructure', 'sqlite', 'prebuilds', 'linux-x64'))).toBe(true);
  });

  it('the installed lookout says its version and runs status over empty folders', () => {
    const version = lookout(['--version']);
    expect(version.status).toBe(0);
    expect(version.stdout).toMatch(/^lookout \d+\.\d+\.\d+\n$/);
    const status = lookout(['status', '--json']);
    expect(status.stderr).toBe('');
    expect(status.status).toBe(0);
    expect((JSON.parse(status.stdout) as { sessions: unknown[] }).sessions).toEqual([]);
  });

  it('the installed lookout reads a SQLite session table (Cline 3.0.65, as the agent wrote it)', () => {
    const data = join(scratch, 'cline');
    cpSync(CLINE, data, { recursive: true });
    const status = lookout(['status', '--json', '--all'], { CLINE_DATA_DIR: data });
    expect(status.status).toBe(0);
    const rows = (JSON.parse(status.stdout) as { sessions: { provider: string }[] }).sessions;
    expect(rows.map((row) => row.provider)).toEqual(['cline']);
  });

  it('the installed lookout runs doctor: its version, this Node, every agent, and the agent it found', () => {
    const data = join(scratch, 'cline-doctor');
    cpSync(CLINE, data, { recursive: true });
    const doctor = lookout(['doctor', '--json'], { CLINE_DATA_DIR: data });
    const report = JSON.parse(doctor.stdout) as {
      lookout: { version: string };
      node: { version: string };
      agents: { id: string; found: boolean; variable: string | null }[];
      problems: unknown[];
    };
    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    expect(report.lookout.version).toBe(version);
    expect(report.node.version).toBe(process.version);
    expect(report.agents.find((agent) => agent.id === 'cline')).toMatchObject({ found: true, variable: 'CLINE_DATA_DIR' });
    expect(report.agents.filter((agent) => agent.found).map((agent) => agent.id)).toEqual(['cline']);
    expect(doctor.status).toBe(report.problems.length === 0 ? 0 : 1);
    const text = lookout(['doctor'], { CLINE_DATA_DIR: data });
    expect(text.stdout).toContain(`lookout ${version}, node ${process.version}`);
  });

  it('engines names the oldest Node Lookout checks for (NODE_MINIMUM) and that Node runs this suite', () => {
    const engines = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
    expect(engines).toBe(`>=${NODE_MINIMUM.join('.')}`);
    expect(nodeAtLeast(process.versions.node)).toBe(true);
    expect(nodeAtLeast('20.18.3')).toBe(false);
    expect(nodeAtLeast('v26.0.0')).toBe(true);
  });

  it('a bad argument to the installed lookout exits 2 with one line', () => {
    const bad = lookout(['status', '--frobnicate']);
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
  });
});
