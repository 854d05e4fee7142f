/**
 * Node's arguments to run a TypeScript entry point as the process itself, with tsx's loader (`node --import tsx
 * file …`), for tests that signal the process they spawn.
 *
 * Not tsx's command (`tsx file`): that runs the program in a second process and relays a signal to it, then SIGKILLs it
 * when it has not confirmed the signal within 30 ms (tsx 4, `relaySignals`). On a loaded machine a server busy for
 * longer was killed outright: no graceful shutdown, its batched log lines lost (CI, 2026-11-27: the shutdown test saw
 * the server exit with none of its request lines).
 */
export function tsxArgs(file: string, ...args: string[]): string[] {
  return ['--import', 'tsx', file, ...args];
}
