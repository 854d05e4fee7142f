import { createContext, useContext, type ReactNode } from 'react';
import { resourceNamed } from '../../../resources/index';
import type { ResourceDeclaration } from '../../../resources/types';

type Registry = (name: string) => ResourceDeclaration | undefined;

/**
 * Where generated screens look up the declaration a reference points to: the product's registry, or (in a test) the
 * declarations the test made.
 */
const DeclarationsContext = createContext<Registry>(resourceNamed);

export function DeclarationsProvider({ registry, children }: { registry: Registry; children: ReactNode }) {
  return <DeclarationsContext.Provider value={registry}>{children}</DeclarationsContext.Provider>;
}

export function useDeclaration(name: string): ResourceDeclaration | undefined {
  return useContext(DeclarationsContext)(name);
}
