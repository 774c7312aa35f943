// What `hosts add --install` and `hosts upgrade` copy to another machine (issue 26): this
// Lookout's own command line (its bundles and the popover page), the SQLite module with the one
// prebuilt binary for that machine's platform, architecture and C library, and the module that
// loads it. Taken from where this Lookout runs (a clone's dist/ or an installed package).
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** One file to write there: its path under the install folder, its mode, its bytes. */
export interface PayloadFile {
  path: string;
  mode: number;
  bytes: Buffer;
}

/** The machine there, as the probe saw it. */
export interface RemotePlatform {
  platform: string;
  arch: string;
  libc: 'glibc' | 'musl' | null;
}

/** The bundles the command line needs (no source maps, no code cache: that Node makes its own). */
const DIST_FILES = ['cli.cjs', 'cli-main.cjs'];
const SQLITE = ['@photostructure', 'sqlite'];
const LOADER = ['node-gyp-build'];

/** The package folder of `name`, looked for in node_modules from `from` upwards, as Node's require looks. */
function packageFolder(from: string, name: readonly string[]): string | null {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', ...name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(dir) === dir) return null;
  }
}

/** Every regular file under `folder` (symbolic links are not followed), kept if `keep` says so. */
function filesUnder(folder: string, keep: (path: string) => boolean): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      const info = lstatSync(path);
      if (info.isDirectory()) walk(path);
      else if (info.isFile() && keep(relative(folder, path))) found.push(path);
    }
  };
  walk(folder);
  return found;
}

/** The prebuilt binaries' folder name for a platform (node-gyp-build's `<platform>-<arch>`). */
function prebuildFolder(remote: RemotePlatform): string {
  return `${remote.platform}-${remote.arch}`;
}

/**
 * The files for `remote`, or why this Lookout cannot install there (no prebuilt binary of the
 * SQLite module for that platform: it would have to be compiled there, which Lookout never does).
 */
export function installPayload(distDir: string, remote: RemotePlatform): { files: PayloadFile[] } | { refused: string } {
  const sqlite = packageFolder(distDir, SQLITE);
  const loader = sqlite === null ? null : (packageFolder(sqlite, LOADER) ?? packageFolder(distDir, LOADER));
  if (sqlite === null || loader === null)
    return { refused: `this Lookout has no ${sqlite === null ? '@photostructure/sqlite' : 'node-gyp-build'} module beside it (${distDir}) to copy` };
  const target = prebuildFolder(remote);
  const binaries = join(sqlite, 'prebuilds', target);
  if (!existsSync(binaries))
    return { refused: `the SQLite module has no prebuilt binary for ${target} (it has ${readdirSync(join(sqlite, 'prebuilds')).join(', ')})` };
  // On Linux the folder holds one binary per C library: only the one that loads there is sent.
  const wanted = (name: string): boolean => remote.libc === null || !/\.(glibc|musl)\.node$/.test(name) || name.endsWith(`.${remote.libc}.node`);
  const files: PayloadFile[] = [];
  const add = (source: string, path: string): void => {
    const info = lstatSync(source);
    files.push({ path, mode: info.mode & 0o755, bytes: readFileSync(source) });
  };
  for (const name of DIST_FILES) add(join(distDir, name), `dist/${name}`);
  const popover = join(distDir, 'popover');
  if (existsSync(popover)) for (const file of filesUnder(popover, () => true)) add(file, `dist/popover/${relative(popover, file)}`);
  const inModules = (folder: string, name: readonly string[], keep: (path: string) => boolean): void => {
    for (const file of filesUnder(folder, keep)) add(file, ['node_modules', ...name, relative(folder, file)].join('/'));
  };
  inModules(
    sqlite,
    SQLITE,
    (path) =>
      path === 'package.json' ||
      path === 'LICENSE' ||
      (path.startsWith('dist/') && path.endsWith('.cjs')) ||
      (path.startsWith(`prebuilds/${target}/`) && wanted(path)),
  );
  inModules(loader, LOADER, (path) => path === 'package.json' || path === 'LICENSE' || (path.endsWith('.js') && !path.includes('/')));
  return { files };
}
