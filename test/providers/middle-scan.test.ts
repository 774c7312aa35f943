// The background scan of a transcript's middle (issue 14): title records found wherever they fall
// against its read sizes — across a 256 KB read, across a step's budget — and never a fragment of a
// long line taken for one.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scanTitles } from '../../src/providers/claude/middle-scan';

const base = mkdtempSync(join(tmpdir(), 'lookout-middle-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const title = (name: string) => `${JSON.stringify({ type: 'custom-title', customTitle: name, sessionId: 's' })}\n`;
const filler = (bytes: number) => `${JSON.stringify({ type: 'assistant', message: { content: [{ type: 'text', text: 'x'.repeat(Math.max(0, bytes - 60)) }] } })}\n`;

/** Scans the whole file in steps of `budget`, as the runtime does. */
function scanAll(path: string, size: number, budget: number) {
  let facts = { customTitle: null as string | null, summaryTitle: null as string | null };
  let at = 0;
  let steps = 0;
  while (at < size && steps < 10_000) {
    const step = scanTitles(path, at, size, budget, facts);
    expect(step.next).toBeGreaterThan(at);
    facts = { customTitle: step.customTitle, summaryTitle: step.summaryTitle };
    at = step.next;
    steps += 1;
  }
  return facts;
}

describe('scanning the middle of a transcript', () => {
  it.each([0, 1, 100, 262_100, 262_143, 262_144, 262_150])('a title record whose line starts %i bytes before a 256 KB read boundary is found, in any step size', (shift) => {
    const text = filler(262_144 - shift) + title('renamed') + filler(300_000) + filler(1000);
    const path = join(base, `boundary-${shift}.jsonl`);
    writeFileSync(path, text);
    for (const budget of [1024 * 1024, 300_000, 70_000]) expect(scanAll(path, Buffer.byteLength(text), budget).customTitle).toBe('renamed');
  });

  it('the newest of several titles wins; a line longer than a step, holding title-like text, is passed over', () => {
    const long = `${JSON.stringify({ type: 'assistant', message: { content: [{ type: 'text', text: `${'y'.repeat(500_000)} {"type":"custom-title","customTitle":"fake"} ` }] } })}\n`;
    // The long line comes last: were its fragment taken for a record, "fake" would be the newest title.
    const text = title('first') + filler(5000) + title('second') + filler(5000) + long + filler(5000);
    const path = join(base, 'several.jsonl');
    writeFileSync(path, text);
    expect(scanAll(path, Buffer.byteLength(text), 100_000).customTitle).toBe('second');
  });
});
