/**
 * A real browser for the tests: Debian's `chromium` (installed by scripts/ensure-test-tools.sh)
 * headless, loading one local page with the network off, taking a screenshot and dumping the DOM
 * its scripts left; and a small PNG reader to check that the screenshot shows something.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { inflateSync } from 'node:zlib';
import { findBinary } from '../../src/integrations/test-support/monitoring.test-support.js';

/** What the browser made of a page. */
export interface BrowserView {
  /** The DOM after the page's scripts ran, serialized. */
  dom: string;
  /** Every message the page wrote to its console (errors, CSP violations, logs), as Chromium logs them. */
  console: string[];
  /** The screenshot (PNG bytes). */
  png: Buffer;
}

/**
 * Loads `htmlFile` in headless Chromium at `width`×`height` (its own profile in a temporary
 * directory, no network services), takes a screenshot and dumps the DOM in one start.
 */
export async function viewInChromium(htmlFile: string, width: number, height: number): Promise<BrowserView> {
  const chromium = findBinary(
    ['chromium', 'chromium-browser'],
    'run scripts/ensure-test-tools.sh (Debian package chromium)',
  );
  const dir = mkdtempSync(join(tmpdir(), 'chromium-'));
  const shot = join(dir, 'screenshot.png');
  try {
    const args = [
      '--headless',
      // As root (the test containers), Chromium refuses to start with its sandbox.
      '--no-sandbox',
      '--disable-gpu',
      '--hide-scrollbars',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--user-data-dir=${join(dir, 'profile')}`,
      // The page's console messages go to stderr as `…:CONSOLE:<line>] "<message>", source: …`.
      '--enable-logging=stderr',
      '--v=0',
      `--window-size=${width},${height}`,
      `--screenshot=${shot}`,
      '--dump-dom',
      pathToFileURL(htmlFile).href,
    ];
    const { status, stdout, stderr } = await new Promise<{ status: number | null; stdout: string; stderr: string }>(
      (resolve, reject) => {
        const child = spawn(chromium, args, { stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        let err = '';
        child.stdout.on('data', (c: Buffer) => void (out += c.toString()));
        child.stderr.on('data', (c: Buffer) => void (err += c.toString()));
        const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
        child.on('error', reject);
        child.on('close', (code) => {
          clearTimeout(timer);
          resolve({ status: code, stdout: out, stderr: err });
        });
      },
    );
    if (status !== 0) throw new Error(`chromium exited with ${status}:\n${stderr}`);
    return {
      dom: stdout,
      console: stderr.split('\n').filter((l) => /:CONSOLE(:\d+)?\]|:CONSOLE\(\d+\)\]/.test(l)),
      png: readFileSync(shot),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A decoded 8-bit PNG (RGB or RGBA, not interlaced): size and pixels as RGBA. */
export interface Picture {
  width: number;
  height: number;
  /** 4 bytes per pixel, row by row. */
  rgba: Uint8Array;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** Decodes what Chromium writes: 8-bit truecolour with or without alpha, no interlace. */
export function decodePng(png: Buffer): Picture {
  if (png.subarray(0, 8).toString('hex') !== '89504e470d0a1a0a') throw new Error('not a PNG');
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const data: Buffer[] = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const body = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [depth, colour, , , interlace] = [body[8], body[9], body[10], body[11], body[12]];
      if (depth !== 8 || (colour !== 2 && colour !== 6) || interlace !== 0)
        throw new Error(`unsupported PNG: bit depth ${depth}, colour type ${colour}, interlace ${interlace}`);
      channels = colour === 6 ? 4 : 3;
    } else if (type === 'IDAT') data.push(body);
    else if (type === 'IEND') break;
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const rows = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)] ?? 0;
    for (let x = 0; x < stride; x++) {
      const value = raw[y * (stride + 1) + 1 + x] ?? 0;
      const left = x >= channels ? (rows[y * stride + x - channels] ?? 0) : 0;
      const up = y > 0 ? (rows[(y - 1) * stride + x] ?? 0) : 0;
      const upLeft = y > 0 && x >= channels ? (rows[(y - 1) * stride + x - channels] ?? 0) : 0;
      const predicted = [0, left, up, (left + up) >> 1, paeth(left, up, upLeft)][filter] ?? 0;
      rows[y * stride + x] = (value + predicted) & 0xff;
    }
  }
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    for (let c = 0; c < 3; c++) rgba[i * 4 + c] = rows[i * channels + c] ?? 0;
    rgba[i * 4 + 3] = channels === 4 ? (rows[i * channels + 3] ?? 0) : 255;
  }
  return { width, height, rgba };
}

/** How many distinct colours a picture has, and the share of its pixels that are not white. */
export function colourStats(picture: Picture): { colours: number; inked: number } {
  const colours = new Set<number>();
  let inked = 0;
  const pixels = picture.width * picture.height;
  for (let i = 0; i < pixels; i++) {
    const r = picture.rgba[i * 4] ?? 0;
    const g = picture.rgba[i * 4 + 1] ?? 0;
    const b = picture.rgba[i * 4 + 2] ?? 0;
    colours.add((r << 16) | (g << 8) | b);
    if (r < 245 || g < 245 || b < 245) inked++;
  }
  return { colours: colours.size, inked: pixels > 0 ? inked / pixels : 0 };
}
