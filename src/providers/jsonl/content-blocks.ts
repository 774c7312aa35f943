// A message's content as blocks, as Anthropic-style transcripts write it (Droid, Pi): a string is
// one text block; anything that is not an object is passed over.
import type { JsonRecord } from './parse-record';
import { arr, obj, str } from './parse-record';

export function blocksOf(message: JsonRecord | null): JsonRecord[] {
  const content = message?.content;
  return typeof content === 'string'
    ? [{ type: 'text', text: content }]
    : arr(content)
        .map(obj)
        .filter((block): block is JsonRecord => block !== null);
}

/** The text blocks' words, joined by line breaks. */
export function textOf(blocks: readonly JsonRecord[]): string {
  return blocks
    .map((block) => (block.type === 'text' ? (str(block.text) ?? '') : ''))
    .join('\n')
    .trim();
}
