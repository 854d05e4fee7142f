import { useEffect, useState } from 'react';
import { addConsoleTexts } from '../i18n';

let loaded: Promise<void> | undefined;
let ready = false;

/** The console's labels are their own chunk: loaded once, the first time a console screen or menu shows. */
export function useConsoleTexts(): boolean {
  const [isReady, setReady] = useState(ready);
  useEffect(() => {
    if (ready) return;
    let alive = true;
    loaded ??= addConsoleTexts().then(() => {
      ready = true;
    });
    loaded.then(() => alive && setReady(true));
    return () => {
      alive = false;
    };
  }, []);
  return isReady;
}
