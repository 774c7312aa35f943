// `npm run pictures`: the README's pictures of the popover, docs/popover-light.png and
// docs/popover-dark.png. The scene (scripts/pictures/scene.ts) is written to a temp folder, served
// by the built `lookout serve` and shot in headless Chromium at the popover's size, once per theme.
import { build } from 'esbuild';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(root, 'dist', 'cli.cjs');
// Debian's Chromium, as the popover tests use it (test/popover/browser.ts).
const CHROMIUM = ['/usr/lib/chromium/chromium', '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path));
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-dev-shm-usage',
];
// popover.md's frame: 380 × 560, shot at 2× for sharp text on high-density screens.
const VIEWPORT = { width: 380, height: 560 };
const WAIT_MS = 30_000;

/** The scene module is TypeScript (the test imports it too): bundled here into the temp folder. */
async function loadScene(folder) {
  const outfile = join(folder, 'scene.cjs');
  await build({
    entryPoints: [join(root, 'scripts/pictures/scene.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'warning',
  });
  return createRequire(import.meta.url)(outfile);
}

/** `lookout serve` on the scene's folders; resolves with the process and the URL it prints first. */
function serve(env) {
  const child = spawn(process.execPath, [CLI, 'serve'], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`lookout serve printed no URL in ${WAIT_MS / 1000} s; stderr: ${stderr}`)), WAIT_MS);
    child.stdout.on('data', (chunk) => {
      out += chunk.toString();
      const newline = out.indexOf('\n');
      if (newline === -1) return;
      clearTimeout(timer);
      resolve({ child, url: out.slice(0, newline), stderr: () => stderr });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`lookout serve exited ${code}: ${stderr}`));
    });
  });
}

/** Stops the serve process this script started, by its pid, and waits for it to go. */
function stop(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    // serve's own Ctrl-C path: it closes its server and its host connections.
    child.kill('SIGINT');
  });
}

async function shoot(browser, url, keys, colorScheme, path) {
  const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 2, colorScheme });
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(WAIT_MS);
    const errors = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.goto(url);
    // Every row of the scene is on the page (devbox's comes over ssh, after this machine's).
    await page.waitForFunction((wanted) => wanted.every((key) => document.querySelector(`[data-session-key="${CSS.escape(key)}"]`) !== null), keys);
    await page.evaluate(() => document.fonts.ready);
    // The pointer rests outside the list, so no row shows a hover.
    await page.mouse.move(VIEWPORT.width - 1, VIEWPORT.height - 1);
    if (errors.length > 0) throw new Error(`the page reported errors: ${errors.join('; ')}`);
    await page.screenshot({ path });
    console.log(`pictures: ${colorScheme} → ${path}`);
  } finally {
    await context.close();
  }
}

async function main() {
  if (!existsSync(CLI)) throw new Error(`${CLI} is not built: run node scripts/build.mjs first (npm run pictures does)`);
  if (CHROMIUM === undefined) throw new Error('no Chromium found (Debian: apt-get install chromium)');
  const folder = mkdtempSync(join(tmpdir(), 'lookout-pictures-'));
  let scene = null;
  let served = null;
  let browser = null;
  try {
    const { buildScene } = await loadScene(folder);
    scene = await buildScene(join(folder, 'scene'), CLI);
    for (const note of scene.notes) console.log(`pictures: ${note}`);
    served = await serve(scene.env);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    for (const colorScheme of ['light', 'dark']) await shoot(browser, served.url, scene.keys, colorScheme, join(root, 'docs', `popover-${colorScheme}.png`));
  } finally {
    await browser?.close();
    if (served !== null) await stop(served.child);
    await scene?.stop();
    rmSync(folder, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(`pictures: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
