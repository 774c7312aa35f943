// The "hooks out of date" state no other test held (issue 48): a file of Lookout's own that an
// older Lookout wrote reads as out of date, in `hooks status` and in `doctor`; the current one does not.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hookMark } from '../../../src/main/doctor/agents';
import type { InstallRecord } from '../../../src/main/hooks/install-record';
import { sha } from '../../../src/main/hooks/install-record';
import { OWN_FILE_MARK, ownFileStatus } from '../../../src/main/hooks/own-file';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function plugin(): { path: string; edit: { kind: 'own-file'; path: string; text: string; what: string } } {
  const folder = mkdtempSync(join(tmpdir(), 'lookout-own-file-'));
  folders.push(folder);
  const path = join(folder, 'lookout.js');
  return { path, edit: { kind: 'own-file', path, text: `// ${OWN_FILE_MARK} (version 2)\n`, what: 'plugin' } };
}

const emptyRecord = (): InstallRecord => ({ files: {}, notifyLines: {}, folders: {} });

describe('hooks out of date', () => {
  it('the file an older Lookout wrote (recorded, other content) is out of date, and doctor counts it so', () => {
    const { path, edit } = plugin();
    const older = '// an older plugin\n';
    writeFileSync(path, older);
    const record = emptyRecord();
    record.files[path] = { before: null, after: sha(older) };
    const line = ownFileStatus(record, edit);
    expect(line).toMatch(/^installed, out of date/);
    expect(hookMark(line)).toBe('old');
  });

  it('an older file of ours with no record is known by its mark and is out of date too', () => {
    const { path, edit } = plugin();
    writeFileSync(path, `// ${OWN_FILE_MARK} (version 1)\n`);
    expect(hookMark(ownFileStatus(emptyRecord(), edit))).toBe('old');
  });

  it('the current file is installed, not out of date; a file not ours is not installed', () => {
    const { path, edit } = plugin();
    writeFileSync(path, edit.text);
    const current = ownFileStatus(emptyRecord(), edit);
    expect(current).toMatch(/^installed \(/);
    expect(hookMark(current)).toBe('yes');
    writeFileSync(path, "// the user's own plugin\n");
    expect(hookMark(ownFileStatus(emptyRecord(), edit))).toBe('no');
  });
});
