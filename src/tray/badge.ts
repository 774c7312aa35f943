// The tray icon, drawn with pure code so it can be tested pixel by pixel (popover.md "Tray icon"):
// a monochrome eye glyph; with a count, a filled circle at the bottom right in the level colour
// with white digits (1–9, then 9+); working only, a small hollow ring in the working colour.
// The glyph data (digit font, eye geometry, app-icon layout) lives in assets/badge-glyphs.json.
import { PNG } from 'pngjs';
import glyphs from '../../assets/badge-glyphs.json';
import type { Level } from '../engine/vocabulary';

export type Rgb = readonly [number, number, number];

export const LEVEL_COLOURS: Record<Exclude<Level, 'none'>, Rgb> = {
  'needs-you': [0xd9, 0x30, 0x36],
  review: [0xb2, 0x5e, 0x09],
  working: [0x0b, 0x68, 0xcb],
};
const GLYPH: Rgb = [0, 0, 0];
const WHITE: Rgb = [255, 255, 255];

export interface DigitFont {
  /** Cells per glyph row and rows per glyph (3×5). */
  width: number;
  height: number;
  /** Cells from one glyph's left edge to the next one's. */
  advance: number;
  /** One string per row, '#' lit, '.' not. */
  glyphs: Readonly<Record<string, readonly string[]>>;
}

/** The badge's digit font, from assets/badge-glyphs.json. */
export const DIGIT_FONT: DigitFont = glyphs.digits;
/** The eye's almond outline and pupil, as fractions of the glyph's box. */
const EYE: { halfWidth: number; halfHeight: number; innerEdge: number; pupilRadius: number } = glyphs.eye;
/** The app icon: a white rounded square with the eye in black, as fractions of the icon. */
const APP_ICON: { margin: number; cornerRadius: number; glyphSize: number } = glyphs.appIcon;

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
      const rows = DIGIT_FONT.glyphs[char] ?? [];
      rows.forEach((row, dy) => {
        [...row].forEach((cell, dx) => {
          if (cell !== '#') return;
          for (let py = 0; py < scale; py += 1) for (let px = 0; px < scale; px += 1) this.put(x + dx * scale + px, top + dy * scale + py, colour);
        });
      });
      x += DIGIT_FONT.advance * scale;
    }
  }

  /** An anti-aliased rounded square, by 4×4 supersampling. */
  roundedSquare(left: number, top: number, side: number, radius: number, colour: Rgb): void {
    const half = side / 2;
    const cx = left + half;
    const cy = top + half;
    for (let y = Math.floor(top); y < Math.ceil(top + side); y += 1) {
      for (let x = Math.floor(left); x < Math.ceil(left + side); x += 1) {
        let hits = 0;
        for (let sy = 0; sy < 4; sy += 1) {
          for (let sx = 0; sx < 4; sx += 1) {
            const dx = Math.max(0, Math.abs(x + (sx + 0.5) / 4 - cx) - (half - radius));
            const dy = Math.max(0, Math.abs(y + (sy + 0.5) / 4 - cy) - (half - radius));
            if (Math.hypot(dx, dy) <= radius) hits += 1;
          }
        }
        this.put(x, y, colour, hits / 16);
      }
    }
  }

  toPng(): Buffer {
    const png = new PNG({ width: this.size, height: this.size });
    this.data.copy(png.data);
    return PNG.sync.write(png);
  }
}

/** The eye glyph: an almond outline with a pupil, drawn at any size in the square box at (left, top). */
function drawGlyph(canvas: Canvas, left = 0, top = 0, s = canvas.size): void {
  const cx = left + s / 2;
  const cy = top + s / 2;
  for (let y = Math.floor(top); y < Math.ceil(top + s); y += 1) {
    for (let x = Math.floor(left); x < Math.ceil(left + s); x += 1) {
      let hits = 0;
      for (let sy = 0; sy < 4; sy += 1) {
        for (let sx = 0; sx < 4; sx += 1) {
          const px = (x + (sx + 0.5) / 4 - cx) / (s * EYE.halfWidth);
          const py = (y + (sy + 0.5) / 4 - cy) / (s * EYE.halfHeight);
          const edge = px * px + py * py * (1 + px * px);
          if (edge <= 1 && edge >= EYE.innerEdge) hits += 1;
        }
      }
      canvas.put(x, y, GLYPH, hits / 16);
    }
  }
  canvas.disc(cx, cy, s * EYE.pupilRadius, GLYPH);
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
    const width = (text.length * DIGIT_FONT.advance - (DIGIT_FONT.advance - DIGIT_FONT.width)) * scale;
    canvas.text(text, Math.round(cx - width / 2), Math.round(cy - (DIGIT_FONT.height * scale) / 2), scale, WHITE);
  } else if (level === 'working') {
    canvas.clear(cx, cy, r * 0.8 + size / 16);
    canvas.disc(cx, cy, r * 0.8, LEVEL_COLOURS.working, r * 0.8 - size / 10);
  }
  return { level, count, size, png: canvas.toPng() };
}

/** The app icon (assets/icon-*.png, made by scripts/render-icons.mjs): the eye in black on a white rounded square. */
export function drawAppIcon(size: number): Buffer {
  const canvas = new Canvas(size);
  const margin = size * APP_ICON.margin;
  canvas.roundedSquare(margin, margin, size - 2 * margin, size * APP_ICON.cornerRadius, WHITE);
  const box = size * APP_ICON.glyphSize;
  drawGlyph(canvas, (size - box) / 2, (size - box) / 2, box);
  return canvas.toPng();
}

/** 1× and 2× images; monochrome (template) only when nothing is counted or working. */
export function badgeImages(level: Level, count: number): { x1: BadgeImage; x2: BadgeImage; template: boolean } {
  return { x1: drawBadge(level, count, 16), x2: drawBadge(level, count, 32), template: level === 'none' };
}
