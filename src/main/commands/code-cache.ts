// Runs a CommonJS bundle from V8's code cache when one made by this Node for this very file lies
// beside it. A one-shot command otherwise spends a good part of its start-up (`npm run bench`) compiling the bundle and
// the functions its start runs (docs/performance.md). Without a usable cache it compiles as usual.
import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Script } from 'node:vm';

export type CacheUse = 'accepted' | 'rejected' | 'stale' | 'absent' | 'source-maps';

/** The cache names the bundle it was made from (size and time): V8 itself checks only the length. */
const HEADER_BYTES = 16;

export function cachePathFor(bundle: string): string {
  return `${bundle}.cache`;
}

function stampOf(bundle: string): Buffer {
  const info = statSync(bundle);
  const stamp = Buffer.alloc(HEADER_BYTES);
  stamp.writeDoubleLE(info.size, 0);
  stamp.writeDoubleLE(info.mtimeMs, 8);
  return stamp;
}

function readCache(bundle: string): { data: Buffer | undefined; use: CacheUse } {
  let file: Buffer;
  try {
    file = readFileSync(cachePathFor(bundle));
  } catch {
    return { data: undefined, use: 'absent' };
  }
  if (file.length <= HEADER_BYTES || !file.subarray(0, HEADER_BYTES).equals(stampOf(bundle))) return { data: undefined, use: 'stale' };
  return { data: file.subarray(HEADER_BYTES), use: 'accepted' };
}

type ModuleBody = (exports: object, require: NodeJS.Require, module: { exports: object }, filename: string, dirname: string) => void;

/**
 * Runs the bundle as Node would run it as a module. With `write`, the cache is written when the
 * process exits, so it holds the functions that run compiled too (what the build does).
 */
export function runBundle(bundle: string, require: NodeJS.Require, write = false): CacheUse {
  // Node maps stack traces only for modules it loads itself, not for a vm.Script: whoever turned
  // source maps on is debugging, so the bundle is required plainly.
  if (process.sourceMapsEnabled) {
    require(bundle);
    return 'source-maps';
  }
  const cache = write ? { data: undefined, use: 'absent' as const } : readCache(bundle);
  const source = readFileSync(bundle, 'utf8');
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: bundle, cachedData: cache.data });
  const use: CacheUse = cache.use === 'accepted' && script.cachedDataRejected === true ? 'rejected' : cache.use;
  if (write) {
    process.on('exit', () => {
      // The cache carries a hash of V8's flags: the writing run leaves them as a start has them
      // (dispatch.ts's tierFor does not turn the optimiser off in it).
      // Written aside and renamed: a command starting meanwhile reads the old cache or none.
      const aside = `${cachePathFor(bundle)}.${process.pid}`;
      writeFileSync(aside, Buffer.concat([stampOf(bundle), script.createCachedData()]));
      renameSync(aside, cachePathFor(bundle));
    });
  }
  const body = script.runInThisContext() as ModuleBody;
  const module = { exports: {} };
  body.call(module.exports, module.exports, require, module, bundle, dirname(bundle));
  return use;
}
