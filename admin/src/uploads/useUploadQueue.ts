import { useCallback, useState } from 'react';
import { useUnsavedChangesGuard } from '../editing/useUnsavedChangesGuard';
import type { QueuedFile } from './transfer';

/**
 * The state of an upload queue: its files, a change to one of them, removing one, and whether an upload runs. While one
 * runs, closing or reloading the page asks first (it would cut the uploads off).
 */
export function useUploadQueue<T extends QueuedFile>() {
  const [items, setItems] = useState<T[]>([]);
  const [busy, setBusy] = useState(false);

  const update = useCallback((key: string, patch: Partial<T>) => {
    setItems((prev) => prev.map((item) => (item.key === key ? { ...item, ...patch } : item)));
  }, []);

  const remove = useCallback((key: string) => {
    setItems((prev) => prev.filter((item) => item.key !== key));
  }, []);

  useUnsavedChangesGuard(busy);

  /** Runs an upload with the queue busy; does nothing while another runs. */
  async function runBusy(upload: () => Promise<void>) {
    if (busy) return;
    setBusy(true);
    try {
      await upload();
    } finally {
      setBusy(false);
    }
  }

  return { items, setItems, update, remove, busy, runBusy };
}
