// The layer rule: engine ← providers ← main ← tray; the popover sees only the engine's contract.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

export const LAYERS = ['engine', 'providers', 'main', 'tray', 'popover'] as const;
export type Layer = (typeof LAYERS)[number];

/** Which other layers each layer may import; packages are checked separately. */
export const ALLOWED: Record<Layer, readonly Layer[]> = {
  engine: [],
  providers: ['engine'],
  main: ['engine', 'providers'],
  tray: ['engine', 'providers', 'main'],
  popover: ['engine'],
};

/** Packages each layer may import (node builtins count as the package "node"). */
export const PACKAGES: Record<Layer, (name: string) => boolean> = {
  engine: (name) => name === 'zod' || name === 'zod/mini',
  providers: (name) => name === 'node' || name === 'fzstd' || name === 'yaml' || name === '@photostructure/sqlite',
  main: (name) => !['electron', 'menubar', 'preact'].includes(name),
  tray: (name) => name !== 'preact',
  popover: (name) => name === 'preact' || name === 'preact/hooks' || name === 'zod/mini',
};

/**
 * The rooms of src/main, bottom first: a room imports only rooms below it (no cycle, no upward
 * import). A new room takes its place here, or the layers test names it.
 */
export const MAIN_ROOMS = [
  'text',
  'store',
  'git',
  'answer',
  'facts',
  'hooks',
  'hosts',
  'notify',
  'phone',
  'pipeline',
  'cli',
  'runtime',
  'doctor',
  'open',
  'popover',
  'serve',
  'commands',
] as const;

/** The room of a file in src/main (its first folder there), or null for a file elsewhere. */
export function mainRoomOf(srcRoot: string, file: string): string | null {
  const parts = relative(join(srcRoot, 'main'), file).split(sep);
  return parts.length < 2 || parts[0] === '..' ? null : (parts[0] ?? null);
}

/** Why an import from one file in src/main to another breaks the rooms' order, or null. */
function roomProblem(srcRoot: string, file: string, target: string): string | null {
  const from = mainRoomOf(srcRoot, file);
  const to = mainRoomOf(srcRoot, target);
  if (from === null || to === null || from === to) return null;
  const rooms: readonly string[] = MAIN_ROOMS;
  if (!rooms.includes(from)) return `main/${from} is not in MAIN_ROOMS: give it its place`;
  if (!rooms.includes(to)) return `main/${to} is not in MAIN_ROOMS: give it its place`;
  return rooms.indexOf(to) < rooms.indexOf(from) ? null : `main/${from} may not import main/${to} (a room above it)`;
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)/g;

export function importsOf(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(IMPORT)) {
    const spec = match[1] ?? match[2] ?? match[3];
    if (spec !== undefined) found.push(spec);
  }
  return found;
}

export function packageName(spec: string): string {
  if (spec.startsWith('node:')) return 'node';
  const builtins = [
    'fs',
    'path',
    'os',
    'child_process',
    'http',
    'crypto',
    'events',
    'url',
    'util',
    'stream',
    'zlib',
    'readline',
    'net',
    'process',
    'fs/promises',
    'timers',
    'worker_threads',
    'assert',
    'buffer',
  ];
  if (builtins.includes(spec)) return 'node';
  const parts = spec.split('/');
  return spec.startsWith('@')
    ? `${parts[0]}/${parts[1]}`
    : ['preact/hooks', 'preact/jsx-runtime', 'zod/mini', 'lowdb/node'].includes(spec)
      ? spec
      : (parts[0] ?? spec);
}

export interface Violation {
  file: string;
  spec: string;
  why: string;
}

export function layerOf(srcRoot: string, file: string): Layer | null {
  const first = relative(srcRoot, file).split(sep)[0];
  return (LAYERS as readonly string[]).includes(first ?? '') ? (first as Layer) : null;
}

export function checkFile(srcRoot: string, file: string, source: string): Violation[] {
  const layer = layerOf(srcRoot, file);
  if (layer === null) return [];
  const violations: Violation[] = [];
  for (const spec of importsOf(source)) {
    if (spec.startsWith('.')) {
      const resolved = resolve(dirname(file), spec);
      const target = layerOf(srcRoot, resolved);
      const room = layer === 'main' && target === 'main' ? roomProblem(srcRoot, file, resolved) : null;
      if (room !== null) violations.push({ file, spec, why: room });
      if (target === null || target === layer) continue;
      if (!ALLOWED[layer].includes(target)) violations.push({ file, spec, why: `${layer} may not import ${target}` });
    } else {
      const name = packageName(spec);
      if (name === 'preact/jsx-runtime') continue;
      if (!PACKAGES[layer](name)) violations.push({ file, spec, why: `${layer} may not import the package ${name}` });
    }
  }
  return violations;
}

export function sourceFiles(root: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(root)) {
    const path = join(root, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.tsx?$/.test(name)) out.push(path);
  }
  return out;
}

export function checkTree(srcRoot: string): Violation[] {
  return sourceFiles(srcRoot).flatMap((file) => checkFile(srcRoot, file, readFileSync(file, 'utf8')));
}
