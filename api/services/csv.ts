/**
 * CSV cells for files the product hands out (list export, lead export). A cell a spreadsheet would run as a formula
 * (starting with = + - @ tab or CR) gets a leading ', and a cell with a quote, comma, semicolon or line break is quoted.
 */

export const CSV_BOM = '\uFEFF';

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",;\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(cells: readonly unknown[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/** The inverse of the formula guard on import: a cell that reads ' + a formula character was ours; drop the '. */
export function unguardCell(text: string): string {
  return /^'[=+\-@\t\r]/.test(text) ? text.slice(1) : text;
}
