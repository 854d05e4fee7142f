/// <reference types="vite/client" />

/**
 * The `qrcode` package's core encoder alone (the package's browser entry brings a canvas and SVG renderer the player
 * does not need): text in, module matrix out.
 */
declare module 'qrcode/lib/core/qrcode.js' {
  export function create(text: string, options?: { errorCorrectionLevel?: 'L' | 'M' | 'Q' | 'H' }): { modules: { size: number; get(row: number, col: number): number } };
}
