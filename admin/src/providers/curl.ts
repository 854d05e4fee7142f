/**
 * "Copy as cURL" (platform-and-flows.md 2): a request of the console as a shell command that works with a personal API
 * token in $LEADSTAGE_TOKEN (the header is in double quotes so the shell puts the token in; the address in single
 * quotes so nothing in it is expanded).
 */

/** A word in single quotes for a POSIX shell: a single quote inside becomes '\'' (close, escaped quote, reopen). */
export function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The ra-data-simple-rest query of a list request: each parameter as JSON, URL-encoded; empty ones left out. */
export function listQuery(params: { filter?: Record<string, unknown>; sort?: [string, string]; range?: [number, number]; lang?: string }): string {
  const parts: string[] = [];
  if (params.filter && Object.keys(params.filter).length) parts.push(`filter=${encodeURIComponent(JSON.stringify(params.filter))}`);
  if (params.sort) parts.push(`sort=${encodeURIComponent(JSON.stringify(params.sort))}`);
  if (params.range) parts.push(`range=${encodeURIComponent(JSON.stringify(params.range))}`);
  if (params.lang) parts.push(`lang=${encodeURIComponent(params.lang)}`);
  return parts.length ? `?${parts.join('&')}` : '';
}

/** The command for a GET of `url` (absolute: the console's origin and the API path). */
export function curlCommand(url: string): string {
  return `curl -H "Authorization: Bearer $LEADSTAGE_TOKEN" ${shellQuote(url)}`;
}

/** A request as it was sent (method, address, headers, JSON body), as a command: what a test scan sent the provider. */
export function curlForRequest(request: { method: string; url: string; headers: Record<string, string>; body?: string }): string {
  const parts = ['curl', '-X', request.method];
  for (const [name, value] of Object.entries(request.headers)) parts.push('-H', shellQuote(`${name}: ${value}`));
  if (request.body !== undefined) parts.push('--data-raw', shellQuote(request.body));
  parts.push(shellQuote(request.url));
  return parts.join(' ');
}
