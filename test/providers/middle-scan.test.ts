// The background scan of a transcript's middle (issue 14): title records found wherever they fall
// against its read sizes — across a 256 KB read, across a step's budget — and never a fragment of a
// long line taken for one.
import { closeSync, mkdtempSync, renameSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { applyTitleRecord, isTitleLine } from '../../src/providers/claude/transcript';
import { scanTitles } from '../../src/providers/claude/middle-scan';
import { LINE_START } from '../../src/providers/claude/title-search';
import { headHash } from '../../src/providers/file-index';
import type { FileIdentity } from '../../src/providers/session-index';
import { openRegular } from '../../src/providers/system/safe-read';

const base = mkdtempSync(join(tmpdir(), 'lookout-middle-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const title = (name: string) => `${JSON.stringify({ type: 'custom-title', customTitle: name, sessionId: 's' })}\n`;
const filler = (bytes: number) =>
  `${JSON.stringify({ type: 'assistant', message: { content: [{ type: 'text', text: 'x'.repeat(Math.max(0, bytes - 60)) }] } })}\n`;

/** The file as the index would know it now. */
function identityOf(path: string): FileIdentity {
  const { fd, dev, ino, size, mtimeMs } = openRegular(path);
  try {
    return { dev, ino, size, mtimeMs, head: headHash(fd, size) };
  } finally {
    closeSync(fd);
  }
}

/** Scans the whole file in steps of `budget`, as the runtime does. */
function scanAll(path: string, size: number, budget: number) {
  let facts = { customTitle: null as string | null, summaryTitle: null as string | null };
  let at = 0;
  let steps = 0;
  const identity = identityOf(path);
  while (at < size && steps < 10_000) {
    const step = scanTitles(path, identity, at, size, budget, facts);
    if (step === null) throw new Error('the file changed under the scan');
    expect(step.next).toBeGreaterThan(at);
    facts = { customTitle: step.customTitle, summaryTitle: step.summaryTitle };
    at = step.next;
    steps += 1;
  }
  return facts;
}

describe('scanning the middle of a transcript', () => {
  it.each([0, 1, 100, 262_100, 262_143, 262_144, 262_150])(
    'a title record whose line starts %i bytes before a 256 KB read boundary is found, in any step size',
    (shift) => {
      const text = filler(262_144 - shift) + title('renamed') + filler(300_000) + filler(1000);
      const path = join(base, `boundary-${shift}.jsonl`);
      writeFileSync(path, text);
      for (const budget of [1024 * 1024, 300_000, 70_000]) expect(scanAll(path, Buffer.byteLength(text), budget).customTitle).toBe('renamed');
    },
  );

  it('the newest of several titles wins; a line longer than a step, holding title-like text, is passed over', () => {
    const long = `${JSON.stringify({ type: 'assistant', message: { content: [{ type: 'text', text: `${'y'.repeat(500_000)} {"type":"custom-title","customTitle":"fake"} ` }] } })}\n`;
    // The long line comes last: were its fragment taken for a record, "fake" would be the newest title.
    const text = title('first') + filler(5000) + title('second') + filler(5000) + long + filler(5000);
    const path = join(base, 'several.jsonl');
    writeFileSync(path, text);
    expect(scanAll(path, Buffer.byteLength(text), 100_000).customTitle).toBe('second');
  });

  it("a middle that ends inside a line (where the tail's reading begins) is scanned to its end, in any step size", () => {
    const text = `${title('kept')}${filler(300_000)}${filler(2000)}{"type":"custom-title","customTitle":"cut`;
    const path = join(base, 'ends-mid-line.jsonl');
    writeFileSync(path, text);
    for (const budget of [1024 * 1024, 262_144, 5_000, 100]) expect(scanAll(path, Buffer.byteLength(text), budget).customTitle).toBe('kept');
  });

  it('titles are taken as a cold read takes them: an AI title replaces, a later summary does not', () => {
    const record = (fields: Record<string, string>) => `${JSON.stringify({ ...fields, sessionId: 's' })}\n`;
    const text =
      record({ type: 'summary', summary: 'first summary' }) +
      filler(5000) +
      record({ type: 'ai-title', aiTitle: 'the AI title' }) +
      filler(5000) +
      record({ type: 'summary', summary: 'a later summary' }) +
      filler(5000);
    const path = join(base, 'summaries.jsonl');
    writeFileSync(path, text);
    expect(scanAll(path, Buffer.byteLength(text), 4096).summaryTitle).toBe('the AI title');
  });

  it('issue 27: the byte search finds what testing every line finds, for any mix of lines, sizes and steps', () => {
    const record = (fields: Record<string, string>) => `${JSON.stringify({ ...fields, sessionId: 's' })}\n`;
    const line = fc.oneof(
      fc.constantFrom('one', 'two', 'three').map((name) => title(name)),
      fc.constantFrom('an AI title', 'another').map((name) => record({ type: 'ai-title', aiTitle: name })),
      fc.constantFrom('a summary', 'b summary').map((name) => record({ type: 'summary', summary: name })),
      fc.integer({ min: 80, max: 400_000 }).map((bytes) => filler(bytes)),
      // Title-like text deep in a line, and a marker just past a line's first LINE_START bytes: not titles.
      fc
        .integer({ min: 0, max: 300 })
        .map((pad) => `${JSON.stringify({ type: 'user', pad: 'p'.repeat(pad), text: '"type":"custom-title","customTitle":"fake" title"' })}\n`),
      // A title record with other members before its type: one only where its marker ends within LINE_START.
      fc.integer({ min: 0, max: 40 }).map((pad) => `${JSON.stringify({ p: 'p'.repeat(pad), type: 'custom-title', customTitle: `padded ${pad}` })}\n`),
    );
    let run = 0;
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 12 }), fc.constantFrom(1024 * 1024, 300_000, 70_000, 5_000), (lines, budget) => {
        const text = lines.join('');
        const path = join(base, `property-${(run += 1)}.jsonl`);
        writeFileSync(path, text);
        // The reference: every line tested whole, as before the byte search.
        const expected = { customTitle: null as string | null, summaryTitle: null as string | null };
        for (const each of text.split('\n')) {
          if (Buffer.byteLength(each) > 64 * 1024 || !isTitleLine(Buffer.from(each).toString('utf8', 0, LINE_START))) continue;
          applyTitleRecord(expected, JSON.parse(each) as Record<string, unknown>);
        }
        expect(scanAll(path, Buffer.byteLength(text), budget)).toEqual(expected);
        rmSync(path);
      }),
      { numRuns: 40 },
    );
  });

  it('a file replaced under its name since the index knew it is not scanned (null): nothing learned is put on it', () => {
    const path = join(base, 'replaced.jsonl');
    writeFileSync(path, title('old') + filler(5000));
    const identity = identityOf(path);
    expect(scanTitles(path, identity, 0, identity.size, 1 << 20, { customTitle: null, summaryTitle: null })?.customTitle).toBe('old');
    writeFileSync(`${path}.new`, title('new') + filler(5000));
    renameSync(`${path}.new`, path);
    expect(scanTitles(path, identity, 0, identity.size, 1 << 20, { customTitle: null, summaryTitle: null })).toBeNull();
    truncateSync(path, 100);
    expect(scanTitles(path, identityOf(path), 0, identity.size, 1 << 20, { customTitle: null, summaryTitle: null })).toBeNull();
  });

  it('issue 27: a title record in a middle names its type first, as Claude Code writes them; one with its type further in is left to the tail', () => {
    const text = `${filler(5000)}${JSON.stringify({ type: 'ai-title', aiTitle: 'found', sessionId: 's' })}\n${filler(5000)}${JSON.stringify({ sessionId: '7f0c1d2e-0000-4000-8000-000000000000', type: 'custom-title', customTitle: 'not here' })}\n${filler(5000)}`;
    const path = join(base, 'type-first.jsonl');
    writeFileSync(path, text);
    expect(scanAll(path, Buffer.byteLength(text), 1 << 20)).toEqual({ customTitle: null, summaryTitle: 'found' });
  });
});
