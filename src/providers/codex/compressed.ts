// Compressed rollouts (.jsonl.zst) are idle files: decompressed whole, once per size and time.
import { readFile, stat } from 'node:fs/promises';
import { decompress } from 'fzstd';
import { parseRecord } from '../jsonl/parse-record';
import { splitBuffer } from '../jsonl/tail-file';
import { CodexRollout } from './rollout';

/** Larger compressed files are skipped and reported: they are archives, not live sessions. */
export const MAX_COMPRESSED_BYTES = 64 * 1024 * 1024;

export interface CompressedRollout {
  rollout: CodexRollout;
  skipped: number;
  stamp: string;
}

export async function readCompressed(path: string, maxLineBytes: number, previous: CompressedRollout | undefined): Promise<CompressedRollout> {
  const info = await stat(path);
  const stamp = `${info.size}:${info.mtimeMs}`;
  if (previous?.stamp === stamp) return previous;
  if (info.size > MAX_COMPRESSED_BYTES) throw Object.assign(new Error(`compressed rollout over ${MAX_COMPRESSED_BYTES} bytes`), { code: 'EFBIG' });
  const text = Buffer.from(decompress(new Uint8Array(await readFile(path))));
  const { lines, oversized } = splitBuffer(Buffer.concat([text, Buffer.from('\n')]), maxLineBytes);
  const rollout = new CodexRollout();
  let skipped = oversized;
  for (const line of lines) {
    const record = parseRecord(line);
    if (record === null) {
      if (line.trim() !== '') skipped += 1;
    } else rollout.apply(record);
  }
  return { rollout, skipped, stamp };
}
