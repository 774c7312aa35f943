// The two small programs `hosts add --install` runs on another machine's Node, sent over ssh on
// standard input to `node -` (issue 26): nothing passes through that machine's login shell but
// plain words, so any shell works (sh, fish, csh). Written in the oldest JavaScript a Node still
// in use parses, so the probe can say "too old" instead of failing to parse.
import type { PayloadFile } from './install-payload';

/** The line a program ends with: a marker, then its JSON (a login shell may print before it). */
export const PROBE_MARKER = 'LOOKOUT-PROBE ';
export const INSTALL_MARKER = 'LOOKOUT-INSTALL ';

/** Where Lookout installs itself there: the user's data folder, never system-wide. */
const BASE = `var path = require('path'), fs = require('fs'), os = require('os');
var data = process.env.XDG_DATA_HOME && path.isAbsolute(process.env.XDG_DATA_HOME) ? process.env.XDG_DATA_HOME : path.join(os.homedir(), '.local', 'share');
var base = path.join(data, 'lookout', 'cli');`;

/** Says the Node, the platform and the install folder there. */
export function probeProgram(): string {
  return `${BASE}
var libc = null;
if (process.platform === 'linux') {
  try { libc = process.report.getReport().header.glibcVersionRuntime ? 'glibc' : 'musl'; } catch (e) { libc = 'glibc'; }
}
var installed = [];
try { installed = fs.readdirSync(base).filter(function (name) { return /^[0-9]+\\.[0-9]+\\.[0-9]+/.test(name) && !/\\.(new|old)-/.test(name); }); } catch (e) {}
process.stdout.write('\\n${PROBE_MARKER}' + JSON.stringify({ node: process.execPath, version: process.versions.node, platform: process.platform, arch: process.arch, libc: libc, base: base, installed: installed }) + '\\n');
`;
}

/**
 * Writes the files into a fresh folder beside the install folder, checks that the copy runs and
 * its SQLite module loads, then puts it in place of that version's folder (the old one removed
 * only after). Other versions stay: another machine's Lookout may still run one of them.
 */
export function installProgram(version: string, files: readonly PayloadFile[]): string {
  const payload = JSON.stringify(files.map((file) => [file.path, file.mode, file.bytes.toString('base64')]));
  return `${BASE}
var cp = require('child_process');
var version = ${JSON.stringify(version)};
var files = ${payload};
function say(result) { process.stdout.write('\\n${INSTALL_MARKER}' + JSON.stringify(result) + '\\n'); }
var final = path.join(base, version), staging = final + '.new-' + process.pid, old = final + '.old-' + process.pid;
try {
  fs.mkdirSync(base, { recursive: true, mode: 448 });
  files.forEach(function (file) {
    var target = path.join(staging, file[0]);
    fs.mkdirSync(path.dirname(target), { recursive: true, mode: 448 });
    fs.writeFileSync(target, Buffer.from(file[2], 'base64'), { mode: file[1] });
  });
  var runs = cp.spawnSync(process.execPath, [path.join(staging, 'dist', 'cli.cjs'), 'version'], { encoding: 'utf8' });
  if ((runs.stdout || '').trim() !== 'lookout ' + version) throw new Error('the copy does not run: ' + String(runs.stderr || runs.stdout || runs.error).trim().slice(0, 300));
  var loads = cp.spawnSync(process.execPath, ['-e', 'require(process.argv[1])', path.join(staging, 'node_modules', '@photostructure', 'sqlite')], { encoding: 'utf8' });
  if (loads.status !== 0) throw new Error('its SQLite module does not load there: ' + String(loads.stderr).trim().split('\\n')[0].slice(0, 300));
  if (fs.existsSync(final)) fs.renameSync(final, old);
  fs.renameSync(staging, final);
  fs.rmSync(old, { recursive: true, force: true });
  say({ ok: true, dir: final, node: process.execPath });
} catch (error) {
  try { fs.rmSync(staging, { recursive: true, force: true }); } catch (e) {}
  say({ ok: false, why: String(error && error.message || error) });
  process.exitCode = 1;
}
`;
}
