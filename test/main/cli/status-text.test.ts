// Issue 16: `lookout status` as text fits the terminal. At widths 60, 80, 120 and 200 the table is
// compared with golden files (test/fixtures/status-text; UPDATE_GOLDEN=1 writes them anew):
// provider names and ages are never cut, folders and details are cut with an ellipsis at the end,
// wide characters count twice, control characters never reach the terminal. Fixtures: Claude Code
// 2.1.143 and Codex CLI 0.130.0 (agent-formats §1, §2).
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tableLayout } from '../../../src/main/cli/table-layout';
import { textWidth } from '../../../src/main/text/text-width';
import { runCli } from '../cli-process';
import { FIXTURES } from '../../providers/fixture-roots';

const GOLDEN = resolve(__dirname, '../../fixtures/status-text');
const NOW = '2026-11-29T12:02:00.000Z';
const base = mkdtempSync(join(tmpdir(), 'lookout-status-text-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const env = (() => {
  for (const name of ['question-pending', 'hostile-title', 'long-finish', 'working'])
    cpSync(join(FIXTURES, 'claude', name), join(base, 'claude'), { recursive: true });
  for (const name of ['failed-turn', 'tool-pending']) cpSync(join(FIXTURES, 'codex', name), join(base, 'codex'), { recursive: true });
  // A session with a wide-character title, a long folder and a control character in its prompt.
  const id = 'c1a00000-0000-4000-8000-0000000000f1';
  const folder = join(base, 'claude', 'projects', '-home-me-wide');
  mkdirSync(folder, { recursive: true });
  const record = (type: string, at: string, message: object) =>
    JSON.stringify({
      parentUuid: null,
      isSidechain: false,
      type,
      uuid: `${id}-${type}`,
      timestamp: at,
      cwd: '/home/me/a-very-long-project-folder-name-that-goes-on',
      sessionId: id,
      version: '2.1.143',
      gitBranch: 'feature/データベース',
      message,
    });
  writeFileSync(
    join(folder, `${id}.jsonl`),
    `${record('user', '2026-11-29T11:58:00.000Z', { role: 'user', content: 'データベースを設定して、テストを直す\u001b]0;pwned\u0007 then more words here' })}\n`,
  );
  return { CLAUDE_CONFIG_DIR: join(base, 'claude'), CODEX_HOME: join(base, 'codex'), LOOKOUT_HOME: join(base, 'home'), HOME: base };
})();

function table(width: number | null, extra: string[] = []): string {
  const result = runCli(['status', '--now', NOW, ...extra], { ...env, ...(width === null ? {} : { COLUMNS: String(width) }) });
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
}

describe('status text fits the terminal (issue 16)', () => {
  it.each([60, 80, 120, 200])('at width %i: as the golden file says', (width) => {
    const text = table(width);
    const golden = join(GOLDEN, `width-${width}.txt`);
    if (process.env.UPDATE_GOLDEN === '1' || !existsSync(golden)) writeFileSync(golden, text);
    expect(text).toBe(readFileSync(golden, 'utf8'));
  });

  it.each([60, 80, 120, 200])('at width %i: no line is wider, provider names and ages are whole, nothing controls the terminal', (width) => {
    const text = table(width);
    const lines = text.trimEnd().split('\n');
    for (const line of lines) expect(textWidth(line), line).toBeLessThanOrEqual(width);
    const rows = lines.filter((line) => /^[●✕◆⚑◐✓▶?·] /.test(line));
    expect(rows).toHaveLength(7);
    for (const row of rows) expect(row).toMatch(/^. (claude|codex)\s+\w{8} +(\d+[dhms]( \d+[hms])?) {2}/);
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  });

  it('--wide and a pipe without COLUMNS print everything', () => {
    const wide = table(60, ['--wide']);
    expect(wide).toBe(table(null));
    expect(wide).toContain('a-very-long-project-folder-name-that-goes-on · feature/データベース');
    expect(wide).toContain('stream disconnected before completion');
  });

  it('colour only on a terminal, and never with NO_COLOR', () => {
    expect(tableLayout({ isTTY: true, columns: 100 }, {}, false)).toEqual({ width: 100, color: true });
    expect(tableLayout({ isTTY: true, columns: 100 }, { NO_COLOR: '1' }, false)).toEqual({ width: 100, color: false });
    expect(tableLayout({ isTTY: false }, {}, false)).toEqual({ width: null, color: false });
    expect(tableLayout({ isTTY: false }, { COLUMNS: '72' }, false)).toEqual({ width: 72, color: false });
    expect(tableLayout({ isTTY: true, columns: 100 }, { COLUMNS: '72' }, true)).toEqual({ width: null, color: true });
    // A piped table never carries colour codes.
    expect(table(80)).not.toContain('\u001b[');
  });
});
