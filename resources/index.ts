import { RESOURCES } from './registry.js';
import type { ResourceDeclaration } from './types.js';

export * from './registry.js';

const BY_NAME = new Map(RESOURCES.map((r) => [r.name, r]));

/** A registered declaration by its name (the REST path segment). The registry is fixed at load: a map, not a scan per call. */
export function resourceNamed(name: string): ResourceDeclaration | undefined {
  return BY_NAME.get(name);
}
export * from './permissions.js';
export * from './messages.js';
export type { ResourceDeclaration } from './types.js';
