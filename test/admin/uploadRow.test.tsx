import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { AdminContext, type I18nProvider } from 'react-admin';
import { UploadRow, type UploadRowProps, type UploadTestIds } from '../../admin/src/uploads/UploadRow';
import { UploadQueue, type UploadQueueProps } from '../../admin/src/uploads/UploadQueue';
import { useUploadQueue } from '../../admin/src/uploads/useUploadQueue';
import { apiErrorOf, inParallel, STORAGE_FAILED, type QueuedFile } from '../../admin/src/uploads/transfer';
import { ApiRequestError } from '../../admin/src/providers/http';
import { consoleI18n } from '../helpers/consoleScreens';

let i18nProvider: I18nProvider;
// The media library's texts and the console's (the assets').
beforeAll(async () => {
  i18nProvider = await consoleI18n();
});
afterEach(cleanup);

const IDS: UploadTestIds = {
  list: 'list',
  item: 'item',
  name: 'name',
  state: 'state',
  progress: 'progress',
  retry: 'retry',
  remove: 'remove',
  start: 'start',
  clear: 'clear',
  summary: 'summary',
};

const queued = (name: string, patch: Partial<QueuedFile> = {}): QueuedFile => ({
  key: name,
  file: new File([new Uint8Array(1536)], name, { type: 'image/png' }),
  status: 'queued',
  progress: 0,
  ...patch,
});

const wrap = (children: ReactNode) => <AdminContext i18nProvider={i18nProvider}>{children}</AdminContext>;

function renderRow(item: QueuedFile, props: Partial<UploadRowProps> = {}) {
  const onRetry = vi.fn();
  const onRemove = vi.fn();
  const all: UploadRowProps = {
    item,
    texts: 'ls.media.upload',
    testIds: IDS,
    busy: false,
    retryable: true,
    lead: { icon: <span data-testid="kind-icon" /> },
    onRetry,
    onRemove,
    ...props,
  };
  const view = render(wrap(<UploadRow {...all} />));
  const rerender = (patch: Partial<UploadRowProps>) => view.rerender(wrap(<UploadRow {...all} {...patch} />));
  return { row: screen.getByTestId('item'), onRetry, onRemove, rerender, user: userEvent.setup() };
}

describe('UploadRow', () => {
  it('shows the name, size and state of a waiting file, which can be removed by keyboard but not while an upload runs', async () => {
    const { row, onRemove, rerender, user } = renderRow(queued('stage.png'));
    expect(row.tagName).toBe('LI');
    expect(row.dataset.status).toBe('queued');
    expect(within(row).getByTestId('name').textContent).toBe('stage.png');
    expect(within(row).getByTestId('state').textContent).toBe('1.5 KB · Ready to upload');
    expect(within(row).getByTestId('kind-icon')).toBeTruthy();
    expect(within(row).queryByRole('progressbar')).toBeNull();
    expect(within(row).queryByRole('button', { name: /Try/ })).toBeNull();

    const remove = within(row).getByRole('button', { name: 'Remove stage.png from the list' });
    await user.tab();
    expect(document.activeElement).toBe(remove);
    await user.keyboard('{Enter}');
    expect(onRemove).toHaveBeenCalledTimes(1);

    rerender({ busy: true });
    expect((within(row).getByRole('button', { name: 'Remove stage.png from the list' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows a progress bar while the bytes go out (no remove), and an indeterminate one while the file is saved', () => {
    const { row, rerender } = renderRow(queued('clip.mp4', { status: 'uploading', progress: 0.42 }), { busy: true });
    expect(row.dataset.status).toBe('uploading');
    const bar = within(row).getByRole('progressbar', { name: 'clip.mp4: Uploading… 42%' });
    expect(bar.getAttribute('aria-valuenow')).toBe('42');
    expect(bar.dataset.testid).toBe('progress');
    expect(within(row).getByTestId('state').textContent).toBe('1.5 KB · Uploading… 42%');
    expect(within(row).queryByRole('button')).toBeNull();

    rerender({ item: queued('clip.mp4', { status: 'registering', progress: 1 }) });
    const saving = within(row).getByRole('progressbar');
    expect(saving.getAttribute('aria-valuenow')).toBeNull();
    expect(within(row).getByTestId('state').textContent).toBe('1.5 KB · Saving…');

    rerender({ item: queued('clip.mp4', { status: 'done', progress: 1 }), busy: false });
    expect(within(row).queryByRole('progressbar')).toBeNull();
    expect(within(row).getByTestId('state').textContent).toBe('1.5 KB · Uploaded');
    // The status icon takes the kind icon's place.
    expect(within(row).queryByTestId('kind-icon')).toBeNull();
    expect(within(row).getByTestId('CheckCircleIcon')).toBeTruthy();
  });

  it('announces a failure in the words of its message key, offers "try again" when a retry can help, and removal', async () => {
    const { row, onRetry, onRemove, rerender, user } = renderRow(queued('notes.txt', { status: 'failed', error: STORAGE_FAILED }));
    expect(row.dataset.status).toBe('failed');
    expect(within(row).getByRole('alert').textContent).toBe('1.5 KB · Failed to upload the asset to the storage server (check server log)');
    expect(within(row).getByTestId('ErrorOutlineOutlinedIcon')).toBeTruthy();
    await user.click(within(row).getByRole('button', { name: 'Try notes.txt again' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
    await user.click(within(row).getByTestId('remove'));
    expect(onRemove).toHaveBeenCalledTimes(1);
    expect(within(row).getByTestId('retry')).toBeTruthy();

    // Not while another upload runs, nor for a failure a retry cannot mend.
    rerender({ busy: true });
    expect(within(row).queryByRole('button', { name: 'Try notes.txt again' })).toBeNull();
    rerender({ busy: false, retryable: false });
    expect(within(row).queryByRole('button', { name: 'Try notes.txt again' })).toBeNull();
    expect(within(row).getByRole('button', { name: 'Remove notes.txt from the list' })).toBeTruthy();
    // A text the server sent without a key is shown as it came.
    rerender({ item: queued('notes.txt', { status: 'failed', error: 'Disk full' }) });
    expect(within(row).getByRole('alert').textContent).toBe('1.5 KB · Disk full');
  });

  it('keeps a thumbnail in every state and then shows the status in the state line; fields and actions take their places', () => {
    const { row, rerender } = renderRow(queued('map.png', { status: 'done', progress: 1 }), {
      texts: 'ls.assets.upload',
      lead: { thumbnail: <img alt="" data-testid="thumb" /> },
      fields: <input data-testid="title-field" />,
      actions: <button type="button">Open map</button>,
    });
    expect(within(row).getByTestId('thumb')).toBeTruthy();
    const state = within(row).getByTestId('state');
    expect(state.textContent).toBe('1.5 KB · Uploaded');
    expect(within(state).getByTestId('CheckCircleIcon')).toBeTruthy();
    expect(within(row).getByTestId('title-field')).toBeTruthy();
    expect(
      within(row)
        .getAllByRole('button')
        .map((b) => b.getAttribute('aria-label') ?? b.textContent),
    ).toEqual(['Open map', 'Remove map.png from the list']);

    rerender({ item: queued('map.png', { status: 'failed', error: 'error_name_taken' }) });
    expect(within(row).getByTestId('thumb')).toBeTruthy();
    expect(within(within(row).getByRole('alert')).getByTestId('ErrorOutlineOutlinedIcon')).toBeTruthy();
    // The assets' own texts.
    expect(
      within(row)
        .getAllByRole('button')
        .map((b) => b.getAttribute('aria-label') ?? b.textContent),
    ).toEqual(['Open map', 'Try map.png again', 'Remove map.png from the list']);
    rerender({ item: queued('map.png', { status: 'failed' }) });
    expect(within(row).getByTestId('state').textContent).toBe('1.5 KB · Not uploaded');
  });
});

describe('UploadQueue', () => {
  function renderQueue(props: Partial<UploadQueueProps>, rows: ReactNode[] = []) {
    const onStart = vi.fn();
    const view = render(
      wrap(
        <UploadQueue texts="ls.media.upload" testIds={IDS} queued={0} busy={false} onStart={onStart} summary={null} {...props}>
          {rows}
        </UploadQueue>,
      ),
    );
    return { onStart, user: userEvent.setup(), container: view.container };
  }

  it('lists the rows under the name of the list, and no list while the queue is empty', () => {
    const { container } = renderQueue({});
    expect(container.querySelector('ul')).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
    cleanup();
    renderQueue({ queued: 1 }, [<li key="a">a.png</li>]);
    const list = screen.getByRole('list', { name: 'Files to upload' });
    expect(list.dataset.testid).toBe('list');
    expect(within(list).getByRole('listitem').textContent).toBe('a.png');
  });

  it('starts the waiting files, says so while they go, and then what happened', async () => {
    const { onStart, user } = renderQueue({ queued: 3 });
    await user.click(screen.getByRole('button', { name: 'Upload 3 files' }));
    expect(onStart).toHaveBeenCalledTimes(1);
    expect(screen.queryByTestId('clear')).toBeNull();
    expect(screen.queryByRole('status')).toBeNull();
    cleanup();

    renderQueue({ queued: 0, busy: true });
    expect((screen.getByTestId('start') as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId('start').textContent).toBe('Uploading…');
    cleanup();

    const clear = vi.fn();
    renderQueue({ queued: 0, clear: { onClick: clear }, summary: { done: 2, failed: 1 } });
    expect(screen.queryByTestId('start')).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('2 files uploaded · 1 file failed');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Clear the list' }));
    expect(clear).toHaveBeenCalledTimes(1);
    cleanup();

    renderQueue({ texts: 'ls.assets.upload', clear: { onClick: clear, disabled: true }, summary: { done: 0, failed: 2 } });
    expect((screen.getByRole('button', { name: 'Clear uploaded files' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByRole('status').textContent).toBe('2 files not uploaded');
  });
});

describe('upload queue state', () => {
  it('changes and removes one file, runs one upload at a time, and asks before the page is left meanwhile', async () => {
    let queue!: ReturnType<typeof useUploadQueue<QueuedFile>>;
    function Host() {
      queue = useUploadQueue<QueuedFile>();
      return null;
    }
    render(<Host />);
    act(() => queue.setItems([queued('a.png'), queued('b.png')]));
    act(() => queue.update('b.png', { status: 'failed', error: 'x' }));
    expect(queue.items.map((i) => [i.key, i.status])).toEqual([
      ['a.png', 'queued'],
      ['b.png', 'failed'],
    ]);
    act(() => queue.remove('a.png'));
    expect(queue.items.map((i) => i.key)).toEqual(['b.png']);

    const leave = () => {
      const e = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(e);
      return e.defaultPrevented;
    };
    expect(leave()).toBe(false);
    let finish!: () => void;
    let running!: Promise<void>;
    act(() => {
      running = queue.runBusy(() => new Promise<void>((r) => (finish = r)));
    });
    expect(queue.busy).toBe(true);
    expect(leave()).toBe(true);
    const second = vi.fn(async () => undefined);
    await act(() => queue.runBusy(second));
    expect(second).not.toHaveBeenCalled();
    await act(async () => {
      finish();
      await running;
    });
    expect(queue.busy).toBe(false);
    expect(leave()).toBe(false);
  });
});

describe('upload glue', () => {
  it('runs work at most n at a time, in order, until all ended', async () => {
    let running = 0;
    let most = 0;
    const started: number[] = [];
    await inParallel([1, 2, 3, 4, 5], 2, async (n) => {
      started.push(n);
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, n % 2 ? 5 : 1));
      running--;
    });
    expect(started).toEqual([1, 2, 3, 4, 5]);
    expect(most).toBe(2);
    expect(running).toBe(0);
    await inParallel([], 3, async () => undefined);
  });

  it('reads the error answer of an API call or a storage server', () => {
    expect(apiErrorOf(new ApiRequestError(409, { code: 'name_taken' }))).toEqual({ status: 409, body: { code: 'name_taken' } });
    expect(apiErrorOf({ code: 'file_too_large' })).toEqual({ body: { code: 'file_too_large' } });
    expect(apiErrorOf('<Error/>')).toEqual({});
    expect(apiErrorOf(undefined)).toEqual({});
  });
});
