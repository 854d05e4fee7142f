import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import QRCode from 'qrcode';

/**
 * A camera feed for Chromium's --use-file-for-fake-video-capture: a .y4m (raw YUV 4:2:0) whose frames show a QR code
 * of `text` on a card-like white area, drawn here from the `qrcode` package's module matrix. Written to a temporary
 * file; answers its path.
 */
export function qrCodeY4m(text: string, { width = 640, height = 480, frames = 10, scale = 8 } = {}): string {
  const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const n = qr.modules.size;
  const side = (n + 8) * scale; // 4 modules of quiet zone each side
  const x0 = Math.floor((width - side) / 2);
  const y0 = Math.floor((height - side) / 2);
  const y = Buffer.alloc(width * height, 90); // grey background
  for (let row = 0; row < side; row++) {
    for (let col = 0; col < side; col++) {
      const mx = Math.floor(col / scale) - 4;
      const my = Math.floor(row / scale) - 4;
      const dark = mx >= 0 && my >= 0 && mx < n && my < n && qr.modules.get(my, mx) === 1;
      y[(y0 + row) * width + x0 + col] = dark ? 16 : 235;
    }
  }
  const chroma = Buffer.alloc((width / 2) * (height / 2), 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), y, chroma, chroma]);
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ls-camera-')), 'badge.y4m');
  fs.writeFileSync(file, Buffer.concat([header, ...Array.from({ length: frames }, () => frame)]));
  return file;
}
