import zlib from 'node:zlib';

/**
 * The demo's media, made at seed time without an image or audio library (seeds/04_showcase_demo.ts): PNG posters for
 * the assets and the carousels, PNG photos of business cards for the transcription queue, and a short voice memo
 * (WebM with PCM audio, which Chromium plays and records). Deterministic: the same arguments give the same bytes.
 */

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** An 8-bit RGB PNG of `rgb` (width × height × 3 bytes). */
export function encodePng(width: number, height: number, rgb: Uint8Array): Buffer {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) Buffer.from(rgb.buffer, rgb.byteOffset + y * width * 3, width * 3).copy(raw, y * (width * 3 + 1) + 1);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(raw, { level: 6 })), chunk('IEND', Buffer.alloc(0))]);
}

type Rgb = [number, number, number];

function hsl(h: number, s: number, l: number): Rgb {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4)];
}

class Canvas {
  readonly px: Uint8Array;
  constructor(
    readonly w: number,
    readonly h: number,
  ) {
    this.px = new Uint8Array(w * h * 3);
  }
  set(x: number, y: number, c: Rgb, alpha = 1): void {
    if (x < 0 || y < 0 || x >= this.w || y >= this.h) return;
    const o = (y * this.w + x) * 3;
    for (let i = 0; i < 3; i++) this.px[o + i] = Math.round(this.px[o + i] * (1 - alpha) + c[i] * alpha);
  }
  rect(x0: number, y0: number, w: number, h: number, c: Rgb, alpha = 1): void {
    for (let y = Math.max(0, Math.floor(y0)); y < Math.min(this.h, y0 + h); y++)
      for (let x = Math.max(0, Math.floor(x0)); x < Math.min(this.w, x0 + w); x++) this.set(x, y, c, alpha);
  }
  circle(cx: number, cy: number, r: number, c: Rgb, alpha = 1): void {
    for (let y = Math.max(0, Math.floor(cy - r)); y < Math.min(this.h, cy + r); y++)
      for (let x = Math.max(0, Math.floor(cx - r)); x < Math.min(this.w, cx + r); x++) if ((x - cx) ** 2 + (y - cy) ** 2 <= r * r) this.set(x, y, c, alpha);
  }
  png(): Buffer {
    return encodePng(this.w, this.h, this.px);
  }
}

/**
 * A poster: a diagonal gradient in the hue, then one of four compositions (circles, stripes, tiles, rings) and a
 * white title bar with grey "text" lines, so every asset and slide looks different at a glance.
 */
export function drawPoster(width: number, height: number, hue: number, style: number): Buffer {
  const c = new Canvas(width, height);
  const from = hsl(hue, 0.7, 0.32);
  const to = hsl((hue + 40) % 360, 0.75, 0.58);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const t = (x / width + y / height) / 2;
      c.set(x, y, [from[0] + (to[0] - from[0]) * t, from[1] + (to[1] - from[1]) * t, from[2] + (to[2] - from[2]) * t] as Rgb);
    }
  const s = width / 1280;
  const light = hsl((hue + 180) % 360, 0.8, 0.7);
  if (style % 4 === 0) for (let i = 0; i < 6; i++) c.circle(width * (0.2 + 0.13 * i), height * (0.35 + 0.1 * Math.sin(i)), (60 + 25 * (i % 3)) * s, light, 0.45);
  else if (style % 4 === 1) for (let i = 0; i < 9; i++) c.rect(width * 0.08 * i + width * 0.1, 0, width * 0.03, height, light, 0.35);
  else if (style % 4 === 2)
    for (let i = 0; i < 4; i++)
      for (let j = 0; j < 3; j++) c.rect(width * (0.12 + 0.2 * i), height * (0.1 + 0.22 * j), width * 0.15, height * 0.17, (i + j) % 2 ? light : [255, 255, 255], 0.3);
  else
    for (let r = 5; r > 0; r--) {
      c.circle(width * 0.7, height * 0.4, r * 55 * s, r % 2 ? light : from, 0.6);
    }
  c.rect(width * 0.06, height * 0.68, width * 0.6, height * 0.2, [255, 255, 255], 0.92);
  c.rect(width * 0.09, height * 0.72, width * 0.4, height * 0.045, from);
  c.rect(width * 0.09, height * 0.8, width * 0.3, height * 0.025, [150, 150, 150]);
  c.circle(width * 0.9, height * 0.15, 40 * s, [255, 255, 255], 0.9);
  return c.png();
}

/** A photo of a business card: the card (white, a coloured logo, lines of text in grey) slightly lit, on a desk. */
export function drawCardPhoto(n: number, back = false): Buffer {
  const w = 640;
  const h = 400;
  const c = new Canvas(w, h);
  const desk = hsl(25 + (n % 5) * 4, 0.35, 0.28 + (n % 3) * 0.04);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) c.set(x, y, [desk[0] + ((x * 7 + y * 3 + n) % 11), desk[1] + ((x * 5 + y) % 7), desk[2]] as Rgb);
  const x0 = 70 + (n % 4) * 6;
  const y0 = 60 + (n % 3) * 8;
  c.rect(x0 + 8, y0 + 10, 500, 280, [0, 0, 0], 0.35); // shadow
  c.rect(x0, y0, 500, 280, [248, 247, 242]);
  const brand = hsl((n * 47) % 360, 0.65, 0.45);
  if (back) {
    c.rect(x0, y0, 500, 280, brand, 0.9);
    c.circle(x0 + 250, y0 + 140, 60, [255, 255, 255], 0.9);
    return c.png();
  }
  c.circle(x0 + 60, y0 + 60, 32, brand);
  c.rect(x0 + 30, y0 + 130, 220 + (n % 5) * 20, 22, [40, 40, 40]);
  c.rect(x0 + 30, y0 + 165, 160 + (n % 4) * 15, 14, [120, 120, 120]);
  for (let i = 0; i < 3; i++) c.rect(x0 + 30, y0 + 205 + i * 20, 200 + ((n + i) % 3) * 40, 10, [150, 150, 150]);
  c.rect(x0 + 380, y0 + 30, 90, 8, brand);
  return c.png();
}

// ---- WebM (Matroska) with PCM audio: EBML elements with 8-byte sizes.

function ebml(id: number, body: Buffer): Buffer {
  const idBytes = Buffer.from(id.toString(16).padStart(id > 0xffffff ? 8 : id > 0xffff ? 6 : id > 0xff ? 4 : 2, '0'), 'hex');
  const size = Buffer.alloc(8);
  size.writeBigUInt64BE(BigInt(body.length));
  size[0] = 0x01;
  return Buffer.concat([idBytes, size, body]);
}
const uint = (id: number, v: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(v);
  return ebml(id, b);
};
const float = (id: number, v: number) => {
  const b = Buffer.alloc(8);
  b.writeDoubleBE(v);
  return ebml(id, b);
};
const str = (id: number, v: string) => ebml(id, Buffer.from(v, 'ascii'));

/**
 * A voice memo of `seconds`: a hummed "voice" (a pitch gliding around 180 Hz with syllable-like bursts) as 16-bit
 * mono PCM at 8 kHz in a WebM, about 16 KB a second. Chromium plays it (its MediaRecorder writes the same codec).
 */
export function makeMemoWebm(seconds = 3, pitch = 180): Buffer {
  const rate = 8000;
  const samples = Math.round(seconds * rate);
  const pcm = Buffer.alloc(samples * 2);
  let phase = 0;
  for (let i = 0; i < samples; i++) {
    const t = i / rate;
    const f = pitch * (1 + 0.12 * Math.sin(2 * Math.PI * 0.7 * t));
    phase += (2 * Math.PI * f) / rate;
    const syllable = Math.max(0, Math.sin(2 * Math.PI * 3.1 * t)) ** 0.6;
    const fade = Math.min(1, t * 10, (seconds - t) * 10);
    const v = (Math.sin(phase) + 0.4 * Math.sin(2 * phase) + 0.2 * Math.sin(3 * phase)) * syllable * fade * 9000;
    pcm.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round(v))), i * 2);
  }
  const blockMs = 100;
  const perBlock = (rate * blockMs) / 1000;
  const blocks: Buffer[] = [uint(0xe7, 0)];
  for (let s = 0, n = 0; s < samples; s += perBlock, n++) {
    const head = Buffer.from([0x81, 0, 0, 0x80]);
    head.writeInt16BE(n * blockMs, 1);
    blocks.push(ebml(0xa3, Buffer.concat([head, pcm.subarray(s * 2, Math.min(samples, s + perBlock) * 2)])));
  }
  const header = ebml(0x1a45dfa3, Buffer.concat([uint(0x4286, 1), uint(0x42f7, 1), uint(0x42f2, 4), uint(0x42f3, 8), str(0x4282, 'webm'), uint(0x4287, 4), uint(0x4285, 2)]));
  const info = ebml(0x1549a966, Buffer.concat([uint(0x2ad7b1, 1_000_000), str(0x4d80, 'leadstage-demo'), str(0x5741, 'leadstage-demo'), float(0x4489, seconds * 1000)]));
  const audio = ebml(0xe1, Buffer.concat([float(0xb5, rate), uint(0x9f, 1), uint(0x6264, 16)]));
  const track = ebml(0xae, Buffer.concat([uint(0xd7, 1), uint(0x73c5, 1), uint(0x83, 2), str(0x86, 'A_PCM/INT/LIT'), audio]));
  const segment = ebml(0x18538067, Buffer.concat([info, ebml(0x1654ae6b, track), ebml(0x1f43b675, Buffer.concat(blocks))]));
  return Buffer.concat([header, segment]);
}
