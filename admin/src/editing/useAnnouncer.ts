import { useCallback, useState } from 'react';

/**
 * The text of an editor's polite live region and how to say something in it. The same text twice in a row gets a
 * no-break space, so a screen reader hears it again.
 */
export function useAnnouncer(): [announcement: string, announce: (text: string) => void] {
  const [announcement, setAnnouncement] = useState('');
  const announce = useCallback((text: string) => setAnnouncement((prev) => (prev === text ? `${text}\u00a0` : text)), []);
  return [announcement, announce];
}
