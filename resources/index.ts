import { RESOURCES } from './registry.js';
import type { ResourceDeclaration } from './types.js';

export * from './registry.js';

/** A registered declaration by its name (the REST path segment). */
export function resourceNamed(name: string): ResourceDeclaration | undefined {
  return RESOURCES.find((r) => r.name === name);
}
export * from './permissions.js';
export * from './messages.js';
export type { ResourceDeclaration } from './types.js';
