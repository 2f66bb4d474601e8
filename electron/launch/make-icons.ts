/**
 * Draws the app icon (a waveform on a rounded square) and writes every size the installers
 * need, with no image tools: PNG via zlib, ICO and ICNS as PNG containers.
 *   assets/icon.png             1024×1024, electron-builder's source icon
 *   assets/icons/<n>x<n>.png    16…512, Linux (AppImage, deb) and the tray/window icon
 *   assets/icon.ico             16, 24, 32, 48, 64, 128, 256 (Windows, NSIS)
 *   assets/icon.icns            16…1024 incl. retina (macOS, dmg)
 *   assets/tray/trayTemplate.png, trayTemplate@2x.png
 *                               16×16 and 32×32 macOS menu-bar Template images: the waveform
 *                               alone, black on transparent (macOS tints it for the menu bar)
 *   assets/tray/tray.ico        16, 20, 24, 32, 40, 48 (the Windows notification area)
 * Run with `npm run icons`; the output is committed.
 */

import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const here = (path: string) => fileURLToPath(new URL(`../../assets/${path}`, import.meta.url));

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** RGBA pixels (row-major) → PNG bytes. */
function encodePng(size: number, rgba: Uint8Array): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0; // filter: none
    raw.set(rgba.subarray(y * size * 4, (y + 1) * size * 4), y * (size * 4 + 1) + 1);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Bar heights of the waveform, as fractions of the icon. */
const BARS = [0.18, 0.34, 0.56, 0.4, 0.68, 0.46, 0.26, 0.5, 0.3, 0.16];

/** Whether (u, v) in [0, 1]² is on a bar of the waveform spanning `inner`…1 − `inner`. */
function onBar(u: number, v: number, inner: number): boolean {
  const width = (1 - 2 * inner) / BARS.length;
  const i = Math.floor((u - inner) / width);
  const bar = BARS[i];
  if (bar === undefined || u < inner) return false;
  const within = (u - inner) / width - i;
  return within > 0.18 && within < 0.82 && Math.abs(v - 0.5) < bar / 2;
}

/** The menu-bar Template image: the waveform alone, taller, black (only alpha counts). */
function shadeTemplate(u: number, v: number): [number, number, number] | undefined {
  return onBar(u, 0.5 + (v - 0.5) * 0.75, 0.02) ? [0, 0, 0] : undefined;
}

/** Colour at (u, v) in [0, 1]², with alpha; undefined outside the shape. */
function shade(u: number, v: number): [number, number, number] | undefined {
  // Rounded square with a 6% margin and 22% corner radius.
  const m = 0.06;
  const r = 0.22;
  const dx = Math.max(m + r - u, 0, u - (1 - m - r));
  const dy = Math.max(m + r - v, 0, v - (1 - m - r));
  if (u < m || u > 1 - m || v < m || v > 1 - m || dx * dx + dy * dy > r * r) return undefined;
  if (onBar(u, v, 0.2)) return [255, 255, 255];
  // Indigo to teal, top-left to bottom-right.
  const t = (u + v) / 2;
  return [Math.round(67 + (20 - 67) * t), Math.round(56 + (184 - 56) * t), Math.round(202 + (166 - 202) * t)];
}

/** Draws the icon (or, with `shadeTemplate`, the menu-bar image) at `size` pixels with 4×4 supersampling. */
function drawIcon(size: number, paint = shade): Uint8Array {
  const rgba = new Uint8Array(size * size * 4);
  const n = 4;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const c = paint((x + (sx + 0.5) / n) / size, (y + (sy + 0.5) / n) / size);
          if (!c) continue;
          r += c[0];
          g += c[1];
          b += c[2];
          a += 1;
        }
      }
      const o = (y * size + x) * 4;
      if (a > 0) {
        rgba[o] = Math.round(r / a);
        rgba[o + 1] = Math.round(g / a);
        rgba[o + 2] = Math.round(b / a);
        rgba[o + 3] = Math.round((255 * a) / (n * n));
      }
    }
  }
  return rgba;
}

/** ICO with PNG-compressed images (Windows Vista and later). */
function encodeIco(images: { size: number; png: Buffer }[]): Buffer {
  const header = Buffer.alloc(6 + 16 * images.length);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = header.length;
  images.forEach(({ size, png }, i) => {
    const e = 6 + 16 * i;
    header[e] = size >= 256 ? 0 : size;
    header[e + 1] = size >= 256 ? 0 : size;
    header.writeUInt16LE(1, e + 4); // planes
    header.writeUInt16LE(32, e + 6); // bits per pixel
    header.writeUInt32LE(png.length, e + 8);
    header.writeUInt32LE(offset, e + 12);
    offset += png.length;
  });
  return Buffer.concat([header, ...images.map((i) => i.png)]);
}

/** ICNS with PNG entries, by OSType. */
function encodeIcns(entries: { type: string; png: Buffer }[]): Buffer {
  const parts = entries.map(({ type, png }) => {
    const head = Buffer.alloc(8);
    head.write(type, 0, 'ascii');
    head.writeUInt32BE(png.length + 8, 4);
    return Buffer.concat([head, png]);
  });
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'ascii');
  head.writeUInt32BE(8 + parts.reduce((s, p) => s + p.length, 0), 4);
  return Buffer.concat([head, ...parts]);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const png = new Map<number, Buffer>();
  const get = (size: number) => {
    if (!png.has(size)) png.set(size, encodePng(size, drawIcon(size)));
    return png.get(size)!;
  };
  mkdirSync(here('icons'), { recursive: true });
  writeFileSync(here('icon.png'), get(1024));
  for (const size of [16, 24, 32, 48, 64, 128, 256, 512])
    writeFileSync(here(`icons/${size}x${size}.png`), get(size));
  writeFileSync(
    here('icon.ico'),
    encodeIco([16, 24, 32, 48, 64, 128, 256].map((size) => ({ size, png: get(size) }))),
  );
  const icns: [string, number][] = [
    ['icp4', 16],
    ['icp5', 32],
    ['icp6', 64],
    ['ic07', 128],
    ['ic08', 256],
    ['ic09', 512],
    ['ic10', 1024],
    ['ic11', 32],
    ['ic12', 64],
    ['ic13', 256],
    ['ic14', 512],
  ];
  writeFileSync(here('icon.icns'), encodeIcns(icns.map(([type, size]) => ({ type, png: get(size) }))));
  mkdirSync(here('tray'), { recursive: true });
  writeFileSync(here('tray/trayTemplate.png'), encodePng(16, drawIcon(16, shadeTemplate)));
  writeFileSync(here('tray/trayTemplate@2x.png'), encodePng(32, drawIcon(32, shadeTemplate)));
  writeFileSync(
    here('tray/tray.ico'),
    encodeIco([16, 20, 24, 32, 40, 48].map((size) => ({ size, png: encodePng(size, drawIcon(size)) }))),
  );
  process.stdout.write('wrote assets/icon.png, icon.ico, icon.icns, icons/*.png and tray/*\n');
}
