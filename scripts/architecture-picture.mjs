// Draws src/main's rooms and the imports between them (a Mermaid graph) into docs/architecture.md,
// between its rooms markers, so the picture is read from the code. `--check`: exit 1 when stale.
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MAIN = join(ROOT, 'src', 'main');
const DOC = join(ROOT, 'docs', 'architecture.md');
const BEGIN = '<!-- rooms:begin -->';
const END = '<!-- rooms:end -->';
// The same import forms the layers test reads (test/architecture/layers.ts).
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)/g;

function sourcesUnder(folder) {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return sourcesUnder(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The room a path in src/main falls in (its first folder there), or null. */
function roomOf(path) {
  const parts = relative(MAIN, path).split(sep);
  return parts.length < 2 || parts[0] === '..' ? null : parts[0];
}

/** The Mermaid block: every room (a folder of src/main), and an arrow up from each room to each room that imports it. */
function picture() {
  const rooms = readdirSync(MAIN)
    .filter((name) => statSync(join(MAIN, name)).isDirectory())
    .sort();
  const edges = new Set();
  for (const room of rooms) {
    for (const file of sourcesUnder(join(MAIN, room))) {
      for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
        const spec = match[1] ?? match[2] ?? match[3];
        if (spec === undefined || !spec.startsWith('.')) continue;
        const target = roomOf(resolve(dirname(file), spec));
        if (target !== null && target !== room) edges.add(`  ${target} --> ${room}`);
      }
    }
  }
  return ['```mermaid', 'graph BT', ...rooms.map((room) => `  ${room}[${room}/]`), ...[...edges].sort(), '```'].join('\n');
}

/** The document with its rooms block drawn again. */
function redrawn(doc) {
  const begin = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  if (begin < 0 || end < begin) throw new Error(`docs/architecture.md has no ${BEGIN} … ${END} block`);
  return `${doc.slice(0, begin + BEGIN.length)}\n${picture()}\n${doc.slice(end)}`;
}

const doc = readFileSync(DOC, 'utf8');
const next = redrawn(doc);
if (process.argv.includes('--check')) {
  if (next !== doc) {
    process.stderr.write('docs/architecture.md: the rooms picture is stale; run npm run docs:architecture\n');
    process.exit(1);
  }
} else if (next !== doc) {
  writeFileSync(DOC, next);
}
