// The WebAssembly opcodes the title search is assembled from, by their names in the spec's text
// format (core 2.0 and its fixed-width SIMD), so the module reads as instructions, not bytes.

/** Control and numeric instructions (one byte each). */
export const OP = {
  block: 0x02,
  loop: 0x03,
  if: 0x04,
  end: 0x0b,
  br: 0x0c,
  brIf: 0x0d,
  return: 0x0f,
  localGet: 0x20,
  localSet: 0x21,
  localTee: 0x22,
  i32Const: 0x41,
  i32Eqz: 0x45,
  i32GtU: 0x4b,
  i32GeU: 0x4f,
  i32Add: 0x6a,
  i32Sub: 0x6b,
  /** The prefix of every SIMD instruction below. */
  simd: 0xfd,
} as const;

/** SIMD instructions, each written after OP.simd. */
export const SIMD = {
  v128Load: 0x00,
  i8x16Splat: 0x0f,
  i8x16Eq: 0x23,
  v128And: 0x4e,
  v128Or: 0x50,
  v128AnyTrue: 0x53,
} as const;

/** Value and block types. */
export const TYPE = { void: 0x40, i32: 0x7f, v128: 0x7b, func: 0x60 } as const;

/** Section ids of a module. */
export const SECTION = { type: 1, function: 3, memory: 5, export: 7, code: 10 } as const;

/** What an export names. */
export const EXPORT = { func: 0, memory: 2 } as const;

/** `\0asm`, version 1. */
export const PREAMBLE = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00] as const;

/** An unsigned LEB128 number. */
export function uleb(value: number): number[] {
  const out: number[] = [];
  do {
    let byte = value & 0x7f;
    value >>>= 7;
    if (value !== 0) byte |= 0x80;
    out.push(byte);
  } while (value !== 0);
  return out;
}

/** A signed LEB128 number. */
export function sleb(value: number): number[] {
  const out: number[] = [];
  for (;;) {
    const byte = value & 0x7f;
    value >>= 7;
    if ((value === 0 && (byte & 0x40) === 0) || (value === -1 && (byte & 0x40) !== 0)) return [...out, byte];
    out.push(byte | 0x80);
  }
}

export const section = (id: number, content: number[]): number[] => [id, ...uleb(content.length), ...content];
export const name = (text: string): number[] => [...uleb(text.length), ...Buffer.from(text)];
