import { useCallback, useRef, useState } from 'react';
import { ApiRequestError } from '../providers/http';
import type { ListApi, ListImportFailure } from './listApi';
import type { ListImportState } from './ListImportDialog';

/** Importing a CSV or indented text file: the hidden file input, the call, and what the import dialog shows; the tree is read again after. */
export function useListImport(client: ListApi, reload: () => Promise<void>) {
  const [importState, setImportState] = useState<ListImportState>({ state: 'idle' });
  const fileInput = useRef<HTMLInputElement>(null);

  async function importFile(file: File) {
    if (!/\.(csv|txt)$/i.test(file.name)) {
      setImportState({ state: 'wrong_type' });
      return;
    }
    setImportState({ state: 'busy', file: file.name });
    try {
      const result = await client.importFile(file);
      setImportState({ state: 'success', created: result.created });
      await reload();
    } catch (e) {
      setImportState({ state: 'failed', body: e instanceof ApiRequestError ? (e.body as ListImportFailure) : { code: 'network' } });
    }
  }

  const chooseFile = useCallback(() => fileInput.current?.click(), []);
  const closeDialog = () => setImportState({ state: 'idle' });

  return { importState, fileInput, importFile, chooseFile, closeDialog };
}
