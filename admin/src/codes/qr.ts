import QRCode from 'qrcode';

/**
 * A code's QR (account-console.md: codes): the absolute address of its player, <origin>/play/{cc_code}, drawn from
 * the `qrcode` package's module matrix, so the picture on screen, the SVG and the PNG downloads are the same modules.
 */

/** Light modules around the code (the QR standard asks for 4). */
export const QUIET_ZONE = 4;

/** The address a code's QR holds. */
export function playerUrl(code: string, origin = window.location.origin): string {
  return `${origin}/play/${encodeURIComponent(code)}`;
}

export interface QrMatrix {
  /** Modules per side, without the quiet zone. */
  size: number;
  dark(row: number, col: number): boolean;
}

export function qrMatrix(text: string): QrMatrix {
  // M (15 % recovery): a printed code survives a smudge; a URL of ~40 characters stays a small version.
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  return { size: modules.size, dark: (r, c) => !!modules.get(r, c) };
}

/** One SVG path of the dark modules (unit squares, quiet zone included in the offsets). */
export function qrPath(m: QrMatrix): string {
  let d = '';
  for (let r = 0; r < m.size; r++) {
    for (let c = 0; c < m.size; c++) if (m.dark(r, c)) d += `M${c + QUIET_ZONE} ${r + QUIET_ZONE}h1v1h-1z`;
  }
  return d;
}

/** A standalone SVG document of the QR (scales without loss; for print shops). */
export function qrSvg(text: string, { fg = '#000000', bg = '#ffffff', title }: { fg?: string; bg?: string; title?: string } = {}): string {
  const m = qrMatrix(text);
  const side = m.size + QUIET_ZONE * 2;
  const esc = (s: string) => s.replace(/[&<>"]/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[ch]!);
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${side} ${side}" width="${side * 10}" height="${side * 10}" shape-rendering="crispEdges">` +
    (title ? `<title>${esc(title)}</title>` : '') +
    `<rect width="${side}" height="${side}" fill="${bg}"/><path fill="${fg}" d="${qrPath(m)}"/></svg>\n`
  );
}

/** A PNG of the QR, `scale` pixels a module (16: about 660 px for a player URL, sharp when printed at 5 cm). */
export async function qrPng(text: string, scale = 16): Promise<Blob> {
  const m = qrMatrix(text);
  const side = (m.size + QUIET_ZONE * 2) * scale;
  const canvas = document.createElement('canvas');
  canvas.width = side;
  canvas.height = side;
  const ctx = canvas.getContext('2d')!;
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, side, side);
  ctx.fillStyle = '#000000';
  for (let r = 0; r < m.size; r++) for (let c = 0; c < m.size; c++) if (m.dark(r, c)) ctx.fillRect((c + QUIET_ZONE) * scale, (r + QUIET_ZONE) * scale, scale, scale);
  return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('png'))), 'image/png'));
}

/** Saves a blob under a file name (a temporary link the browser downloads). */
export function download(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
