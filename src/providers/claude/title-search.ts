// Where title records may be in a chunk of a Claude transcript, at the speed of a plain read
// (issue 27): a WebAssembly SIMD loop finds the 16-byte blocks holding either marker's rare byte
// pair (`-t` of "-title", `y"` of "summary"), and only those blocks are looked at byte by byte.
// Node's Buffer.indexOf reads 1–4 GB/s on transcript text: over a gigabyte, several times a read.
// A title record names its type first, so only the 64-byte group holding a newline and the next
// are tested for the pairs; the other groups of a line are looked at only for a newline.
import { EXPORT, OP, PREAMBLE, SECTION, SIMD, TYPE, name, section, sleb, uleb } from './wasm-ops';

/** The markers of a title record's type ("custom-title", "ai-title"; "summary"), and where its pair is. */
export const TITLE_MARKERS: readonly { bytes: Buffer; pairAt: number }[] = [
  { bytes: Buffer.from('-title"'), pairAt: 0 },
  { bytes: Buffer.from('"type":"summary"'), pairAt: 14 },
];

/**
 * How far into a line a title record's marker may end (the scan's text test reads no further):
 * its type comes first, as Claude Code writes every record of its own (`{"type":"custom-title",`
 * ends at 22 bytes; every title record in the real samples starts `{"type":"`). A window of 200
 * bytes, for records that might put other members first, made the search half as costly again
 * (`npm run bench` measures it); the tail's reading still accepts a type within a line's first 200
 * characters (docs/providers.md).
 */
export const LINE_START = 32;
/** A pair further than this past the start of the last 64-byte group holding a newline ends past LINE_START. */
const LINE_WINDOW = LINE_START + 64;

/** The largest chunk one search takes (the scan's read size). */
export const SEARCH_CHUNK = 256 * 1024;

/**
 * The module: memory of the chunk plus slack, and `find(from, to)`: the first 16-byte block start
 * in [from, to), stepping by 16, whose bytes at i and i+1 are one of the pairs, or -1. Four blocks
 * are tested per branch while 64 bytes remain (one branch per block made the loop branch-bound);
 * a hit among them, or the last bytes, go through the one-block loop, which returns the first.
 * A group further than `window` past the start of the last group holding a newline (or `from`) is
 * passed over once it holds none: a pair there is too far into its line to be a title's. Past the
 * window, a tight loop looks only for the next group holding a newline (most of a line's groups).
 */
export function moduleBytes(pairs: readonly [number, number][], window: number): Uint8Array<ArrayBuffer> {
  const get = (local: number) => [OP.localGet, local];
  const set = (local: number) => [OP.localSet, local];
  const tee = (local: number) => [OP.localTee, local];
  const i32 = (value: number) => [OP.i32Const, ...sleb(value)];
  const simd = (op: number) => [OP.simd, op];
  const splat = (byte: number) => [...i32(byte), ...simd(SIMD.i8x16Splat)];
  // v128.load, alignment 0, at the offset.
  const load = (offset: number) => [...simd(SIMD.v128Load), 0, ...uleb(offset)];
  // Locals: 0 from, 1 to (params); v128s: 2 the block one byte on, then the pairs' splats, the
  // newline's splat, and the four blocks of a group as loaded; then `line` (i32): the start of the
  // last group seen to hold a newline.
  const next = 2;
  const newline = 3 + pairs.length * 2;
  const block = (index: number) => newline + 1 + index;
  const line = block(4);
  /** Leaves on the stack the mask of the pairs in the block held in `held`, at from + offset. */
  const blockMask = (held: number, offset: number): number[] => {
    const code = [...get(0), ...load(offset + 1), ...set(next)];
    pairs.forEach((_pair, index) => {
      code.push(...get(held), ...get(3 + index * 2), ...simd(SIMD.i8x16Eq), ...get(next), ...get(4 + index * 2), ...simd(SIMD.i8x16Eq), ...simd(SIMD.v128And));
      if (index > 0) code.push(...simd(SIMD.v128Or));
    });
    return code;
  };
  /** Leaves on the stack whether the group at `from` holds a newline; `keep` keeps its blocks. */
  const holdsNewline = (keep: boolean): number[] => {
    const code: number[] = [];
    for (let index = 0; index < 4; index += 1) {
      code.push(...get(0), ...load(index * 16), ...(keep ? tee(block(index)) : []), ...get(newline), ...simd(SIMD.i8x16Eq));
      if (index > 0) code.push(...simd(SIMD.v128Or));
    }
    return [...code, ...simd(SIMD.v128AnyTrue)];
  };
  /** Leaves on the stack whether fewer than 64 bytes remain from `from`. */
  const lastBytes = [...get(0), ...i32(64), OP.i32Add, ...get(1), OP.i32GtU];
  const step = (bytes: number) => [...get(0), ...i32(bytes), OP.i32Add, ...set(0)];
  const blockLoop = [OP.block, TYPE.void, OP.loop, TYPE.void];
  const body: number[] = [];
  for (const [index, [first, second]] of pairs.entries()) body.push(...splat(first), ...set(3 + index * 2), ...splat(second), ...set(4 + index * 2));
  body.push(...splat(10), ...set(newline));
  // `from` is a line's start or within one: a line that starts before it is looked at too.
  body.push(...get(0), ...set(line));
  body.push(...blockLoop); // four blocks at a time
  body.push(...lastBytes, OP.brIf, 1); // to the one-block loop
  // A group holding a newline starts a line: the groups within `window` after it are looked at.
  body.push(...holdsNewline(true), OP.if, TYPE.void, ...get(0), ...set(line), OP.end); // line = from
  // Further than `window` past the last newline: no pair here is near enough a line's start to count.
  body.push(...get(0), ...get(line), OP.i32Sub, ...i32(window), OP.i32GtU, OP.if, TYPE.void); // from - line > window: if
  body.push(OP.loop, TYPE.void, ...step(64), ...lastBytes, OP.brIf, 3, ...holdsNewline(false), OP.i32Eqz, OP.brIf, 0, OP.end); // loop to the next newline
  body.push(OP.br, 1, OP.end); // that group again from the top; end if
  for (let index = 0; index < 4; index += 1) {
    body.push(...blockMask(block(index), index * 16));
    if (index > 0) body.push(...simd(SIMD.v128Or));
  }
  body.push(...simd(SIMD.v128AnyTrue), OP.brIf, 1); // any_true: to the one-block loop, which finds which
  body.push(...step(64), OP.br, 0); // again
  body.push(OP.end, OP.end);
  body.push(...blockLoop); // one block at a time
  body.push(...get(0), ...get(1), OP.i32GeU, OP.brIf, 1); // from >= to: leave the block
  body.push(...get(0), ...load(0), ...set(block(0)), ...blockMask(block(0), 0));
  body.push(...simd(SIMD.v128AnyTrue), OP.if, TYPE.void, ...get(0), OP.return, OP.end); // any_true: return from
  body.push(...step(16), OP.br, 0); // again
  body.push(OP.end, OP.end, ...i32(-1), OP.end); // end loop, end block; -1; end of the function
  // Two runs of locals: the v128s, then one i32 (`line`).
  const locals = [2, ...uleb(6 + pairs.length * 2), TYPE.v128, 1, TYPE.i32];
  const code = [...locals, ...body];
  const pages = Math.ceil((SEARCH_CHUNK + 64) / 65536);
  return new Uint8Array([
    ...PREAMBLE,
    // One type, (func (param i32 i32) (result i32)); one function of it; one memory; two exports.
    ...section(SECTION.type, [1, TYPE.func, 2, TYPE.i32, TYPE.i32, 1, TYPE.i32]),
    ...section(SECTION.function, [1, 0]),
    ...section(SECTION.memory, [1, 0, ...uleb(pages)]),
    ...section(SECTION.export, [2, ...name('memory'), EXPORT.memory, 0, ...name('find'), EXPORT.func, 0]),
    ...section(SECTION.code, [1, ...uleb(code.length), ...code]),
  ]);
}

export interface BlockFinder {
  /** Where chunks are read to: the search looks at these bytes where they lie. */
  readonly buffer: Buffer;
  /**
   * The first block start at or after `from` (before `to`) that may hold a pair; -1 when none. Every
   * pair within LINE_START of its line's start (`from` counting as one) is in a block it returns;
   * a pair further into a line may be passed over.
   */
  find(from: number, to: number): number;
}

const PAIRS = TITLE_MARKERS.map(({ bytes, pairAt }): [number, number] => [bytes[pairAt] ?? 0, bytes[pairAt + 1] ?? 0]);

/** Without WebAssembly (a runtime built without it): every block is looked at, a pair search in plain code. */
export function plainFinder(): BlockFinder {
  const buffer = Buffer.alloc(SEARCH_CHUNK + 64);
  return {
    buffer,
    find(from, to) {
      let best = -1;
      for (const [first, second] of PAIRS) {
        for (let hit = buffer.indexOf(first, from); hit !== -1 && hit < to && (best === -1 || hit < best); hit = buffer.indexOf(first, hit + 1)) {
          if (buffer[hit + 1] === second) {
            best = hit;
            break;
          }
        }
      }
      return best === -1 ? -1 : from + (((best - from) >> 4) << 4);
    },
  };
}

let finder: BlockFinder | null = null;

export function blockFinder(): BlockFinder {
  if (finder !== null) return finder;
  try {
    const instance = new WebAssembly.Instance(new WebAssembly.Module(moduleBytes(PAIRS, LINE_WINDOW)));
    const { memory, find } = instance.exports as { memory: WebAssembly.Memory; find: (from: number, to: number) => number };
    finder = { buffer: Buffer.from(memory.buffer, 0, SEARCH_CHUNK + 32), find };
  } catch {
    finder = plainFinder();
  }
  return finder;
}

/** Whether `data` holds `marker` at `at` (within data's bounds). */
function holds(data: Buffer, at: number, marker: Buffer): boolean {
  if (at < 0 || at + marker.length > data.length) return false;
  for (let index = 0; index < marker.length; index += 1) if (data[at + index] !== marker[index]) return false;
  return true;
}

/**
 * Every position in data[from, to) where a marker starts, ascending (data is the finder's buffer,
 * or a view of it from 0). Each pair the blocks hold is checked against its whole marker.
 */
export function markerHits(search: BlockFinder, data: Buffer, from: number, to: number): { at: number; length: number }[] {
  const hits: { at: number; length: number }[] = [];
  for (let block = search.find(from, to); block !== -1; block = block + 16 < to ? search.find(block + 16, to) : -1) {
    for (let at = block; at < block + 16 && at < to; at += 1) {
      for (const { bytes, pairAt } of TITLE_MARKERS) {
        if (data[at] !== bytes[pairAt] || data[at + 1] !== bytes[pairAt + 1]) continue;
        const start = at - pairAt;
        if (start >= from && start + bytes.length <= to && holds(data, start, bytes)) hits.push({ at: start, length: bytes.length });
      }
    }
  }
  return hits;
}
