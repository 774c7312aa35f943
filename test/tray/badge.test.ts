// R32 on the tray: the badge PNGs decoded and checked pixel by pixel, for every level and the
// counts 0, 1, 9 and 10, at 1× and 2×.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import glyphs from '../../assets/badge-glyphs.json';
import type { Level } from '../../src/engine';
import { DIGIT_FONT, LEVEL_COLOURS, badgeImages, badgeText, drawAppIcon, drawBadge } from '../../src/tray/badge';

const ASSETS = resolve(__dirname, '../../assets');

function pixels(level: Level, count: number, size: number) {
  const png = PNG.sync.read(drawBadge(level, count, size).png);
  const at = (x: number, y: number) => {
    const i = (y * png.width + x) * 4;
    return { r: png.data[i] ?? 0, g: png.data[i + 1] ?? 0, b: png.data[i + 2] ?? 0, a: png.data[i + 3] ?? 0 };
  };
  const all = Array.from({ length: size * size }, (_, i) => at(i % size, Math.floor(i / size)));
  return { png, at, all };
}

const near = (a: { r: number; g: number; b: number }, rgb: readonly number[]) =>
  Math.abs(a.r - (rgb[0] ?? 0)) + Math.abs(a.g - (rgb[1] ?? 0)) + Math.abs(a.b - (rgb[2] ?? 0)) < 40;
const isWhite = (p: { r: number; g: number; b: number; a: number }) => p.a > 200 && p.r > 230 && p.g > 230 && p.b > 230;

describe('tray badge', () => {
  it.each([
    [0, ''],
    [1, '1'],
    [9, '9'],
    [10, '9+'],
    [250, '9+'],
  ])('R32 count %i reads "%s"', (count, text) => {
    expect(badgeText(count)).toBe(text);
  });

  for (const size of [16, 32]) {
    it(`R32 ${size}px: with nothing counted the icon is monochrome (a template image)`, () => {
      const { png, all } = pixels('none', 0, size);
      expect([png.width, png.height]).toEqual([size, size]);
      expect(all.filter((p) => p.a > 0).every((p) => p.r === 0 && p.g === 0 && p.b === 0)).toBe(true);
      expect(all.some((p) => p.a > 200)).toBe(true);
      expect(badgeImages('none', 0).template).toBe(true);
      expect(badgeImages('needs-you', 1).template).toBe(false);
    });

    it.each([
      ['needs-you', 1],
      ['needs-you', 9],
      ['review', 10],
      ['review', 1],
    ] as const)(`R32 ${size}px: %s with %i has a filled circle in its colour and white digits`, (level, count) => {
      const { at, all } = pixels(level, count, size);
      const r = size * 0.3;
      const centre = size - r;
      // The circle's rim is the level's colour (the middle is digit territory).
      const rim = at(Math.floor(centre), Math.floor(centre - r * 0.8));
      expect(near(rim, LEVEL_COLOURS[level])).toBe(true);
      const badge = all.filter((_, i) => Math.hypot((i % size) + 0.5 - centre, Math.floor(i / size) + 0.5 - centre) < r - 1);
      const white = badge.filter(isWhite).length;
      expect(white).toBeGreaterThan(size === 16 ? 4 : 16);
      // More digits, more white: "9+" lights more pixels than "1".
      if (count === 10) expect(white).toBeGreaterThan(pixels(level, 1, size).all.filter(isWhite).length);
    });

    it(`R32 ${size}px: working only shows a hollow ring in the working colour and no digits`, () => {
      const { at, all } = pixels('working', 0, size);
      const r = size * 0.3;
      const centre = size - r;
      expect(near(at(Math.round(centre - r * 0.7), Math.round(centre)), LEVEL_COLOURS.working)).toBe(true);
      expect(at(Math.floor(centre), Math.floor(centre)).a).toBeLessThan(60);
      expect(all.filter(isWhite)).toHaveLength(0);
    });

    it(`R32 ${size}px: a count of 0 at a counted level draws no badge`, () => {
      const { all } = pixels('review', 0, size);
      expect(all.filter((p) => p.a > 0).every((p) => p.r === 0 && p.g === 0 && p.b === 0)).toBe(true);
    });
  }
});

describe('badge glyph data (assets/badge-glyphs.json)', () => {
  it('the badge draws with the digit font from assets', () => {
    expect(DIGIT_FONT).toBe(glyphs.digits);
  });

  it('has a glyph for 0–9 and "+", each 3×5 of only "#" and "."', () => {
    const font = glyphs.digits;
    expect([font.width, font.height]).toEqual([3, 5]);
    expect(Object.keys(font.glyphs).sort()).toEqual(['+', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9']);
    for (const [char, rows] of Object.entries(font.glyphs)) {
      expect(rows, char).toHaveLength(5);
      for (const row of rows) expect(row, char).toMatch(/^[#.]{3}$/);
    }
  });
});

describe('app icon (assets/icon-*.png)', () => {
  it.each([256, 512])('icon-%i.png is what scripts/render-icons.mjs draws now', (size) => {
    expect(readFileSync(resolve(ASSETS, `icon-${size}.png`)).equals(drawAppIcon(size)), 'run node scripts/render-icons.mjs').toBe(true);
  });

  it('is a black eye on a white rounded square, transparent outside it', () => {
    const size = 256;
    const png = PNG.sync.read(drawAppIcon(size));
    expect([png.width, png.height]).toEqual([size, size]);
    const at = (x: number, y: number) => Array.from(png.data.subarray((y * size + x) * 4, (y * size + x) * 4 + 4));
    expect(at(0, 0)[3]).toBe(0); // outside the square
    expect(at(14, 14)[3]).toBe(0); // the rounded corner
    expect(at(40, 128)).toEqual([255, 255, 255, 255]); // the square, left of the eye
    expect(at(128, 128)).toEqual([0, 0, 0, 255]); // the pupil
    expect(at(128, 128 - Math.round(size * 0.6 * 0.3) + 3)).toEqual([0, 0, 0, 255]); // the eye's upper outline
    // Monochrome: every pixel is grey (black, white or a blend of them).
    const coloured = Array.from({ length: size * size }, (_, i) => i * 4).filter((i) => png.data[i] !== png.data[i + 1] || png.data[i + 1] !== png.data[i + 2]);
    expect(coloured).toEqual([]);
  });
});
