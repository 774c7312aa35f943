// `npm start`: the tray app where Electron and a display exist; otherwise, how to use the CLI.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const hasDisplay = process.platform === 'darwin' || process.platform === 'win32' || Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);

function electronBinary() {
  try {
    const path = join(dirname(require.resolve('electron/package.json')), 'path.txt');
    if (!existsSync(path)) return null;
    return require('electron');
  } catch {
    return null;
  }
}

const binary = electronBinary();
if (hasDisplay && binary && existsSync(join(root, 'dist/tray.cjs'))) {
  const child = spawn(binary, [join(root, 'dist/tray.cjs')], { stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
} else {
  const why = !hasDisplay ? 'there is no display here' : !binary ? 'the Electron binary is not installed' : 'the tray app is not built';
  console.log(`Lookout's tray app cannot start: ${why}.`);
  console.log('Use the command line instead:');
  console.log('  npx lookout status          every session, in triage order');
  console.log('  npx lookout watch           live updates (--json, --notify)');
  console.log('  npx lookout serve           the popover in your browser');
  console.log('  npx lookout --help          everything else');
}
