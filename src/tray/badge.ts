// The tray icon, drawn with pure code so it can be tested pixel by pixel (popover.md "Tray icon"):
// a monochrome eye glyph; with a count, a filled circle at the bottom right in the level colour
// with white digits (1–9, then 9+); working only, a small hollow ring in the working colour.
import { PNG } from 'pngjs';
import type { Level } from '../engine/vocabulary';

export type Rgb = readonly [number, number, number];

export const LEVEL_COLOURS: Record<Exclude<Level, 'none'>, Rgb> = {
  'needs-you': [0xd9, 0x30, 0x36],
  review: [0xb2, 0x5e, 0x09],
  working: [0x0b, 0x68, 0xcb],
};
const GLYPH: Rgb = [0, 0, 0];
const WHITE: Rgb = [255, 255, 255];

/** 3×5 digits, one string per row, '#' lit. */
const DIGITS: Record<string, string[]> = {
  '0': ['###', '#.#', '#.#', '#.#', '###'],
  '1': ['.#.', '##.', '.#.', '.#.', '###'],
  '2': ['###', '..#', '###', '#..', '###'],
  '3': ['###', '..#', '###', '..#', '###'],
  '4': ['#.#', '#.#', '###', '..#', '..#'],
  '5': ['###', '#..', '###', '..#', '###'],
  '6': ['###', '#..', '###', '#.#', '###'],
  '7': ['###', '..#', '..#', '..#', '..#'],
  '8': ['###', '#.#', '###', '#.#', '###'],
  '9': ['###', '#.#', '###', '..#', '###'],
  '+': ['...', '.#.', '###', '.#.', '...'],
};

export function badgeText(count: number): string {
  return count <= 0 ? '' : count > 9 ? '9+' : String(count);
}

class Canvas {
  readonly data: Buffer;
  constructor(readonly size: number) {
    this.data = Buffer.alloc(size * size * 4);
  }

  /** Blends a colour over a pixel with coverage `alpha` (0–1). */
  put(x: number, y: number, colour: Rgb, alpha = 1): void {
    if (x < 0 || y < 0 || x >= this.size || y >= this.size || alpha <= 0) return;
    const at = (y * this.size + x) * 4;
    const a = Math.min(1, alpha);
    const under = (this.data[at + 3] ?? 0) / 255;
    const out = a + under * (1 - a);
    for (let channel = 0; channel < 3; channel += 1) {
      const mixed = out === 0 ? 0 : ((colour[channel] ?? 0) * a + (this.data[at + channel] ?? 0) * under * (1 - a)) / out;
      this.data[at + channel] = Math.round(mixed);
    }
    this.data[at + 3] = Math.round(out * 255);
  }

  /** An anti-aliased disc (or ring, with `inner`), by 4×4 supersampling. */
  disc(cx: number, cy: number, radius: number, colour: Rgb, inner = 0): void {
    for (let y = Math.floor(cy - radius - 1); y <= Math.ceil(cy + radius + 1); y += 1) {
      for (let x = Math.floor(cx - radius - 1); x <= Math.ceil(cx + radius + 1); x += 1) {
        let hits = 0;
        for (let sy = 0; sy < 4; sy += 1) {
          for (let sx = 0; sx < 4; sx += 1) {
            const d = Math.hypot(x + (sx + 0.5) / 4 - cx, y + (sy + 0.5) / 4 - cy);
            if (d <= radius && d >= inner) hits += 1;
          }
        }
        this.put(x, y, colour, hits / 16);
      }
    }
  }

  /** Clears a disc to transparent: the badge's cut-out ring against the glyph. */
  clear(cx: number, cy: number, radius: number): void {
    for (let y = 0; y < this.size; y += 1) {
      for (let x = 0; x < this.size; x += 1) {
        if (Math.hypot(x + 0.5 - cx, y + 0.5 - cy) <= radius) this.data.fill(0, (y * this.size + x) * 4, (y * this.size + x) * 4 + 4);
      }
    }
  }

  text(value: string, left: number, top: number, scale: number, colour: Rgb): void {
    let x = left;
    for (const char of value) {
      const rows = DIGITS[char] ?? [];
      rows.forEach((row, dy) => {
        [...row].forEach((cell, dx) => {
          if (cell !== '#') return;
          for (let py = 0; py < scale; py += 1) for (let px = 0; px < scale; px += 1) this.put(x + dx * scale + px, top + dy * scale + py, colour);
        });
      });
      x += 4 * scale;
    }
  }
}

/** The eye glyph: an almond outline with a pupil, drawn at any size. */
function drawGlyph(canvas: Canvas): void {
  const s = canvas.size;
  const cx = s / 2;
  const cy = s / 2;
  for (let y = 0; y < s; y += 1) {
    for (let x = 0; x < s; x += 1) {
      let hits = 0;
      for (let sy = 0; sy < 4; sy += 1) {
        for (let sx = 0; sx < 4; sx += 1) {
          const px = (x + (sx + 0.5) / 4 - cx) / (s * 0.47);
          const py = (y + (sy + 0.5) / 4 - cy) / (s * 0.3);
          const edge = px * px + py * py * (1 + px * px);
          if (edge <= 1 && edge >= 0.62) hits += 1;
        }
      }
      canvas.put(x, y, GLYPH, hits / 16);
    }
  }
  canvas.disc(cx, cy, s * 0.14, GLYPH);
}

export interface BadgeImage {
  level: Level;
  count: number;
  /** Pixel size: 16 for 1×, 32 for 2×. */
  size: number;
  png: Buffer;
}

export function drawBadge(level: Level, count: number, size: number): BadgeImage {
  const canvas = new Canvas(size);
  drawGlyph(canvas);
  const text = badgeText(count);
  const r = size * 0.3;
  const cx = size - r;
  const cy = size - r;
  if (level !== 'none' && level !== 'working' && text !== '') {
    canvas.clear(cx, cy, r + size / 16);
    canvas.disc(cx, cy, r, LEVEL_COLOURS[level]);
    const scale = size >= 32 ? 2 : 1;
    const width = text.length * 4 * scale - scale;
    canvas.text(text, Math.round(cx - width / 2), Math.round(cy - (5 * scale) / 2), scale, WHITE);
  } else if (level === 'working') {
    canvas.clear(cx, cy, r * 0.8 + size / 16);
    canvas.disc(cx, cy, r * 0.8, LEVEL_COLOURS.working, r * 0.8 - size / 10);
  }
  const png = new PNG({ width: size, height: size });
  canvas.data.copy(png.data);
  return { level, count, size, png: PNG.sync.write(png) };
}

/** 1× and 2× images; monochrome (template) only when nothing is counted or working. */
export function badgeImages(level: Level, count: number): { x1: BadgeImage; x2: BadgeImage; template: boolean } {
  return { x1: drawBadge(level, count, 16), x2: drawBadge(level, count, 32), template: level === 'none' };
}
