import { create } from 'qrcode/lib/core/qrcode.js';

/**
 * A collection layer's QR code as one SVG path (crisp at any scale, drawn once): the `qrcode` package's core encoder
 * gives the module matrix; each row's runs of dark modules become rectangles. Error correction M (15 %), a quiet zone
 * of 4 modules in the background colour, as scanners expect.
 */
export const QUIET_ZONE = 4;

/** The path of the dark modules, offset by the quiet zone; `size` is the matrix's side. */
export function qrPath(size: number, dark: (row: number, col: number) => boolean): string {
  const parts: string[] = [];
  for (let row = 0; row < size; row++) {
    let col = 0;
    while (col < size) {
      if (!dark(row, col)) {
        col++;
        continue;
      }
      const start = col;
      while (col < size && dark(row, col)) col++;
      parts.push(`M${start + QUIET_ZONE} ${row + QUIET_ZONE}h${col - start}v1h-${col - start}z`);
    }
  }
  return parts.join('');
}

/** The matrix of a text: its side and whether a module is dark. */
export function qrMatrix(text: string): { size: number; dark: (row: number, col: number) => boolean } {
  const { modules } = create(text, { errorCorrectionLevel: 'M' });
  return { size: modules.size, dark: (row, col) => modules.get(row, col) === 1 };
}

const SVG = 'http://www.w3.org/2000/svg';

/** An <svg> showing the QR code of `text` in `fg` on `bg`, filling its box (square, centred). */
export function qrSvg(text: string, fg: string, bg: string): SVGSVGElement {
  const { size, dark } = qrMatrix(text);
  const side = size + QUIET_ZONE * 2;
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', `0 0 ${side} ${side}`);
  svg.setAttribute('preserveAspectRatio', 'xMidYMid meet');
  svg.setAttribute('shape-rendering', 'crispEdges');
  svg.setAttribute('role', 'img');
  const back = document.createElementNS(SVG, 'rect');
  back.setAttribute('width', String(side));
  back.setAttribute('height', String(side));
  back.setAttribute('fill', bg);
  const path = document.createElementNS(SVG, 'path');
  path.setAttribute('d', qrPath(size, dark));
  path.setAttribute('fill', fg);
  svg.append(back, path);
  return svg;
}
