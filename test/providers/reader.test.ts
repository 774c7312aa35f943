// The incremental JSONL reader: partial lines, the line cap, cold tails, appends, replacement.
import { appendFileSync, mkdtempSync, rmSync, truncateSync, writeFileSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LineSplitter } from '../../src/providers/jsonl/line-splitter';
import { parseRecord } from '../../src/providers/jsonl/parse-record';
import type { JsonRecord } from '../../src/providers/jsonl/parse-record';
import { readWindow, withOpenFile } from '../../src/providers/jsonl/tail-file';
import { TailedFile } from '../../src/providers/tailed-file';

const dir = mkdtempSync(join(tmpdir(), 'lookout-reader-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

class Collect {
  readonly records: JsonRecord[] = [];
  settled = false;
  headDone = true;
  apply(record: JsonRecord): void {
    this.records.push(record);
    if (record.settles === true) this.settled = true;
  }
}

const options = { firstWindow: 64, maxWindow: 4096, headBytes: 64, maxLineBytes: 200, maxLines: 200_000 };
const line = (n: number, extra: Record<string, unknown> = {}) => `${JSON.stringify({ n, ...extra })}\n`;

describe('line splitter', () => {
  it('§11 a partial last line is not a record until its newline arrives', () => {
    const splitter = new LineSplitter();
    expect(splitter.push(Buffer.from('{"a":1}\n{"b":')).lines).toEqual(['{"a":1}']);
    expect(splitter.midLine).toBe(true);
    expect(splitter.push(Buffer.from('2}\n')).lines).toEqual(['{"b":2}']);
  });

  it('skips a line over the cap without holding it, and counts it when it ends', () => {
    const splitter = new LineSplitter(10);
    const first = splitter.push(Buffer.from('x'.repeat(25)));
    expect(first).toEqual({ lines: [], oversized: 0 });
    const second = splitter.push(Buffer.from('yyy\n{"ok":1}\n'));
    expect(second).toEqual({ lines: ['{"ok":1}'], oversized: 1 });
  });

  it('a __proto__ key stays data: no prototype changes, no field appears', () => {
    const record = parseRecord('{"__proto__":{"polluted":true,"isMeta":true},"constructor":{"x":1},"type":"user"}');
    expect(record?.type).toBe('user');
    expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
    expect(record?.isMeta).toBeUndefined();
    expect(record?.polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('rejects non-objects and broken JSON', () => {
    for (const text of ['[1,2]', '42', '"s"', 'null', '{"a":', '\u0000\u0001']) expect(parseRecord(text)).toBeNull();
  });
});

describe('tailed file', () => {
  it('a cold read starts at a line boundary inside the window', async () => {
    const path = join(dir, 'window.jsonl');
    writeFileSync(path, Array.from({ length: 50 }, (_, n) => line(n)).join(''));
    const read = withOpenFile(path, (file) => readWindow(file, 40, 200));
    expect(read.reachedStart).toBe(false);
    expect(read.lines.map((text) => JSON.parse(text).n)).toEqual([46, 47, 48, 49]);
  });

  it('widens the window only until the tail settles', async () => {
    const path = join(dir, 'settle.jsonl');
    writeFileSync(path, [line(0, { settles: true }), ...Array.from({ length: 30 }, (_, n) => line(n + 1))].join(''));
    const file = new TailedFile(path, () => new Collect(), options);
    file.load();
    expect(file.tail.settled).toBe(true);
    expect(file.tail.records[0]?.n).toBe(0);
  });

  it('keeps the head apart when the window did not reach it', async () => {
    const path = join(dir, 'head.jsonl');
    writeFileSync(path, [line(0, { title: 'first' }), ...Array.from({ length: 30 }, (_, n) => line(n + 1, { settles: true }))].join(''));
    const file = new TailedFile(path, () => new Collect(), options);
    file.load();
    expect(file.head?.records[0]?.title).toBe('first');
    expect(file.tail.records.length).toBeLessThan(31);
  });

  it('applies appends, holding a partial line until it completes', async () => {
    const path = join(dir, 'append.jsonl');
    writeFileSync(path, line(1, { settles: true }));
    const file = new TailedFile(path, () => new Collect(), options);
    file.load();
    appendFileSync(path, '{"n":2');
    file.update();
    expect(file.tail.records.map((record) => record.n)).toEqual([1]);
    appendFileSync(path, '}\n');
    file.update();
    expect(file.tail.records.map((record) => record.n)).toEqual([1, 2]);
  });

  it('§11 a file that shrinks is re-read from the start', async () => {
    const path = join(dir, 'shrink.jsonl');
    writeFileSync(path, line(1, { settles: true }) + line(2));
    const file = new TailedFile(path, () => new Collect(), options);
    file.load();
    truncateSync(path, line(1, { settles: true }).length);
    file.update();
    expect(file.tail.records.map((record) => record.n)).toEqual([1]);
  });

  it('§11 a file that is replaced is re-read from the start', async () => {
    const path = join(dir, 'replace.jsonl');
    writeFileSync(path, line(1, { settles: true }));
    const file = new TailedFile(path, () => new Collect(), options);
    file.load();
    writeFileSync(join(dir, 'replacement.jsonl'), line(7, { settles: true }) + line(8));
    renameSync(join(dir, 'replacement.jsonl'), path);
    file.update();
    expect(file.tail.records.map((record) => record.n)).toEqual([7, 8]);
  });

  it('counts malformed and oversized lines, and keeps going', async () => {
    const path = join(dir, 'bad.jsonl');
    writeFileSync(path, `${line(1)}garbage\n${'z'.repeat(500)}\n${line(2, { settles: true })}`);
    const file = new TailedFile(path, () => new Collect(), { ...options, firstWindow: 4096 });
    file.load();
    expect(file.malformed).toBe(1);
    expect(file.oversized).toBe(1);
    expect(file.tail.records.map((record) => record.n)).toEqual([1, 2]);
  });
});

describe('cutting a large unread field', () => {
  it('removes base_instructions, escapes and nesting included, and keeps the rest', async () => {
    const { decodeWithout, decodeLine } = await import('../../src/providers/jsonl/skip-field');
    const marker = '"base_instructions":';
    const line = JSON.stringify({
      type: 'session_meta',
      payload: { id: 'x', base_instructions: { text: 'a "quoted" \\ {brace} [x] ünïcødé 🚀'.repeat(500) }, title: 'é🚀', git: { branch: 'main' } },
    });
    const expected = { type: 'session_meta', payload: { id: 'x', base_instructions: null, title: 'é🚀', git: { branch: 'main' } } };
    expect(parseRecord(decodeWithout(Buffer.from(line), marker))).toEqual(expected);
    expect(JSON.parse(decodeLine(Buffer.from(line)))).toEqual(expected);
    // Already decoded (a tail window): parseRecord makes the same cut.
    expect(parseRecord(line)).toEqual(expected);
    expect(decodeWithout(Buffer.from('{"a":1}'), marker)).toBe('{"a":1}');
    expect(decodeWithout(Buffer.from('{"base_instructions":"unterminated'), marker)).toBe('{"base_instructions":"unterminated');
    expect(decodeWithout(Buffer.from('{"base_instructions": "s\\\\", "b":2}'), marker)).toBe('{"base_instructions": null, "b":2}');
  });
});

describe('reads that begin mid-line', () => {
  it('drop the partial first line silently, even when it is longer than the cap', () => {
    const splitter = new LineSplitter(8, true);
    expect(splitter.push(Buffer.from('tail-of-a-very-long-line'))).toEqual({ lines: [], oversized: 0 });
    expect(splitter.push(Buffer.from('...\n{"a":1}\n'))).toEqual({ lines: ['{"a":1}'], oversized: 0 });
    expect(splitter.leadingBytes).toBe('tail-of-a-very-long-line...\n'.length);
  });
});

describe('lines caught mid-write and rewrites', () => {
  it('§11 a long last line caught mid-write on the cold read is read whole once it ends', async () => {
    const path = join(dir, 'midwrite.jsonl');
    writeFileSync(path, `${line(1, { settles: true })}{"n":2,"pad":"${'p'.repeat(100)}`);
    const file = new TailedFile(path, () => new Collect(), options);
    file.load();
    expect(file.tail.records.map((record) => record.n)).toEqual([1]);
    appendFileSync(path, `${'q'.repeat(50)}"}\n`);
    expect(file.update()).toBe(true);
    expect(file.tail.records.map((record) => record.n)).toEqual([1, 2]);
    expect(file.malformed).toBe(0);
  });

  it('§11 a file rewritten in place (shrunk, then grown past the old end) is read again', async () => {
    const path = join(dir, 'rewrite.jsonl');
    writeFileSync(path, line(1, { settles: true }) + line(2));
    const file = new TailedFile(path, () => new Collect(), options);
    file.load();
    writeFileSync(path, line(1, { settles: true }) + line(30) + line(40, { pad: 'x'.repeat(20) }));
    file.update();
    expect(file.tail.records.map((record) => record.n)).toEqual([1, 30, 40]);
    expect(file.malformed).toBe(0);
  });
});
