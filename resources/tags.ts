/**
 * A typed tag as an identifier (resources/define.ts IDENTIFIER_RE; field kind `tags`): lower case, accents dropped,
 * any run of other characters as "-", starting with a letter, at most 63 characters. '' when nothing is left. Shared
 * by the console's chips input and the capture app (no dependencies, so both bundles take it as it is).
 */
export function normaliseTag(raw: string): string {
  return raw
    .trim()
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^[^a-z]+/, '')
    .slice(0, 63)
    .replace(/-+$/, '');
}
