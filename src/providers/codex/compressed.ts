// Compressed rollouts (.jsonl.zst) are idle files: decompressed whole, once per stamp.
import { Decompress } from 'fzstd';
import { LineSplitter } from '../jsonl/line-splitter';
import { parseRecord } from '../jsonl/parse-record';
import { CodexRollout } from './rollout';
import { stampOf } from '../system/file-stamp';
import { readRegularFile } from '../system/safe-read';

/** Larger compressed files are skipped and reported: they are archives, not live sessions. */
const MAX_COMPRESSED_BYTES = 64 * 1024 * 1024;
/** Decompressed, a rollout past this is skipped too: no live session is that large. */
const MAX_DECOMPRESSED_BYTES = 512 * 1024 * 1024;
const SLICE = 1024 * 1024;

export interface CompressedRollout {
  rollout: CodexRollout;
  skipped: number;
  stamp: string;
}

export async function readCompressed(path: string, maxLineBytes: number, previous: CompressedRollout | undefined): Promise<CompressedRollout> {
  // Loaded on first use: few machines keep compressed rollouts, and fs/promises costs start-up.
  const { stat } = process.getBuiltinModule('node:fs/promises');
  const info = await stat(path);
  const stamp = stampOf(info);
  if (previous?.stamp === stamp) return previous;
  if (info.size > MAX_COMPRESSED_BYTES) throw Object.assign(new Error(`compressed rollout over ${MAX_COMPRESSED_BYTES} bytes`), { code: 'EFBIG' });
  const rollout = new CodexRollout();
  const splitter = new LineSplitter(maxLineBytes);
  let skipped = 0;
  let total = 0;
  const take = (bytes: Uint8Array): void => {
    const { lines, oversized } = splitter.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    skipped += oversized;
    for (const line of lines) {
      const record = parseRecord(line);
      if (record === null) {
        if (line.trim() !== '') skipped += 1;
      } else rollout.apply(record);
    }
  };
  // Streamed: lines are parsed as the data comes, and a file that inflates past the cap stops.
  const stream = new Decompress((chunk) => {
    total += chunk.length;
    if (total > MAX_DECOMPRESSED_BYTES) throw Object.assign(new Error(`rollout inflates past ${MAX_DECOMPRESSED_BYTES} bytes`), { code: 'EFBIG' });
    take(chunk);
  });
  const data = new Uint8Array(readRegularFile(path, MAX_COMPRESSED_BYTES));
  for (let at = 0; at < data.length; at += SLICE) stream.push(data.subarray(at, at + SLICE), at + SLICE >= data.length);
  take(new Uint8Array([0x0a]));
  return { rollout, skipped, stamp };
}
