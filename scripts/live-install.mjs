// Installs the live lab's pinned agents (test/live, its own lock) when they are missing or stale,
// so `npm run test:live` works from a fresh clone. Their install scripts are not run: the lab
// starts each agent's platform binary directly. `npm install`, not `npm ci`: some agents name
// platform packages the registry does not have (opencode's), which the lock cannot hold and
// `npm ci` refuses; the versions are pinned exactly all the same.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const lab = resolve(import.meta.dirname, '../test/live');
const wanted = JSON.parse(readFileSync(join(lab, 'package.json'), 'utf8')).dependencies ?? {};

function installedVersion(name) {
  try {
    return JSON.parse(readFileSync(join(lab, 'node_modules', name, 'package.json'), 'utf8')).version;
  } catch {
    return null;
  }
}

const stale = Object.entries(wanted).filter(([name, version]) => installedVersion(name) !== version);
if (stale.length === 0 && existsSync(join(lab, 'node_modules'))) process.exit(0);
console.log(`live lab: installing ${stale.map(([name, version]) => `${name}@${version}`).join(', ')} (about 2.5 GB, once)`);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
execFileSync(npm, ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: lab, stdio: 'inherit' });
