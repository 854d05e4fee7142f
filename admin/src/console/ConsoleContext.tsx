import { createContext, useContext } from 'react';

/** The account whose console is shown, and the caller's role in it. */
export interface ConsoleAccount {
  accountId: string;
  role: string;
}

export const ConsoleContext = createContext<ConsoleAccount | undefined>(undefined);

export function useConsoleAccount(): ConsoleAccount {
  const value = useContext(ConsoleContext);
  if (!value) throw new Error('useConsoleAccount needs a console');
  return value;
}
