import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, renderHook, screen, waitFor } from '@testing-library/react';
import { ConfirmDeleteDialog, type ConfirmDeleteDialogProps } from '../../admin/src/editing/ConfirmDeleteDialog';
import { LiveRegion } from '../../admin/src/editing/LiveRegion';
import { LoadFailed } from '../../admin/src/editing/LoadFailed';
import { useAnnouncer } from '../../admin/src/editing/useAnnouncer';
import { useLatest } from '../../admin/src/editing/useLatest';
import { useUndoKeys } from '../../admin/src/editing/useUndoKeys';
import { useUnsavedChangesGuard } from '../../admin/src/editing/useUnsavedChangesGuard';

/** The hooks and parts the editors share (admin/src/editing): the carousel editor, the list tree and the form designer. */

afterEach(cleanup);

/** Whether leaving the page now would be questioned (a listener prevented beforeunload's default). */
function leavingIsQuestioned(): boolean {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
}

describe('useUnsavedChangesGuard', () => {
  it('questions leaving only while there are unsaved changes, and not after the editor is gone', () => {
    const { rerender, unmount } = renderHook(({ unsaved }) => useUnsavedChangesGuard(unsaved), { initialProps: { unsaved: false } });
    expect(leavingIsQuestioned()).toBe(false);
    rerender({ unsaved: true });
    expect(leavingIsQuestioned()).toBe(true);
    rerender({ unsaved: false });
    expect(leavingIsQuestioned()).toBe(false);
    rerender({ unsaved: true });
    expect(leavingIsQuestioned()).toBe(true);
    unmount();
    expect(leavingIsQuestioned()).toBe(false);
  });
});

describe('useAnnouncer', () => {
  it('says a new text as it is, and the same text again with a no-break space so it is heard again', () => {
    const { result } = renderHook(() => useAnnouncer());
    expect(result.current[0]).toBe('');
    act(() => result.current[1]('Saved'));
    expect(result.current[0]).toBe('Saved');
    act(() => result.current[1]('Saved'));
    expect(result.current[0]).toBe('Saved\u00a0');
    act(() => result.current[1]('Deleted'));
    expect(result.current[0]).toBe('Deleted');
  });

  it('keeps announce the same function across renders (callbacks built on it do not change)', () => {
    const { result, rerender } = renderHook(() => useAnnouncer());
    const first = result.current[1];
    act(() => first('Moved'));
    rerender();
    expect(result.current[1]).toBe(first);
  });

  it('LiveRegion is a polite, atomic region with the text', () => {
    render(<LiveRegion className="x-sr" testId="x-announcer" text="Layer added" />);
    const region = screen.getByTestId('x-announcer');
    expect(region.getAttribute('aria-live')).toBe('polite');
    expect(region.getAttribute('aria-atomic')).toBe('true');
    expect(region.className).toBe('x-sr');
    expect(region.textContent).toContain('Layer added');
  });
});

describe('useLatest', () => {
  it('is one ref that holds the last rendered value', () => {
    const { result, rerender } = renderHook(({ value }) => useLatest(value), { initialProps: { value: 1 } });
    const ref = result.current;
    expect(ref.current).toBe(1);
    rerender({ value: 2 });
    expect(result.current).toBe(ref);
    expect(ref.current).toBe(2);
  });
});

describe('useUndoKeys', () => {
  function setup(enabled = true) {
    const undo = vi.fn();
    const redo = vi.fn();
    const hook = renderHook(({ on }) => useUndoKeys(on, undo, redo), { initialProps: { on: enabled } });
    return { undo, redo, hook };
  }
  const press = (target: EventTarget, init: KeyboardEventInit) => {
    const event = new KeyboardEvent('keydown', { bubbles: true, cancelable: true, ...init });
    target.dispatchEvent(event);
    return event;
  };

  it('Ctrl+Z or Cmd+Z undoes; Shift+Ctrl+Z, Shift+Cmd+Z and Ctrl+Y redo; each key is taken from the browser', () => {
    const { undo, redo } = setup();
    expect(press(document.body, { key: 'z', ctrlKey: true }).defaultPrevented).toBe(true);
    press(document.body, { key: 'z', metaKey: true });
    expect(undo).toHaveBeenCalledTimes(2);
    expect(redo).not.toHaveBeenCalled();
    expect(press(document.body, { key: 'Z', ctrlKey: true, shiftKey: true }).defaultPrevented).toBe(true);
    press(document.body, { key: 'z', metaKey: true, shiftKey: true });
    press(document.body, { key: 'y', ctrlKey: true });
    expect(redo).toHaveBeenCalledTimes(3);
    expect(undo).toHaveBeenCalledTimes(2);
  });

  it('leaves a plain Z, Alt combinations, text fields and dialogs alone', () => {
    const { undo, redo } = setup();
    const input = document.createElement('input');
    const dialog = document.createElement('div');
    dialog.setAttribute('role', 'dialog');
    const inDialog = document.createElement('button');
    dialog.append(inDialog);
    document.body.append(input, dialog);
    try {
      expect(press(document.body, { key: 'z' }).defaultPrevented).toBe(false);
      press(document.body, { key: 'z', ctrlKey: true, altKey: true });
      expect(press(input, { key: 'z', ctrlKey: true }).defaultPrevented).toBe(false);
      press(inDialog, { key: 'y', ctrlKey: true });
      expect(undo).not.toHaveBeenCalled();
      expect(redo).not.toHaveBeenCalled();
    } finally {
      input.remove();
      dialog.remove();
    }
  });

  it('does nothing while disabled (a read-only editor) nor once unmounted', () => {
    const { undo, hook } = setup(false);
    press(document.body, { key: 'z', ctrlKey: true });
    expect(undo).not.toHaveBeenCalled();
    hook.rerender({ on: true });
    press(document.body, { key: 'z', ctrlKey: true });
    expect(undo).toHaveBeenCalledTimes(1);
    hook.unmount();
    press(document.body, { key: 'z', ctrlKey: true });
    expect(undo).toHaveBeenCalledTimes(1);
  });
});

describe('ConfirmDeleteDialog', () => {
  const props = (over: Partial<ConfirmDeleteDialogProps> = {}): ConfirmDeleteDialogProps => ({
    open: true,
    titleId: 'x-delete-title',
    title: 'Delete “Intro”?',
    text: 'Its layers go with it.',
    cancelLabel: 'Cancel',
    confirmLabel: 'Delete',
    onCancel: vi.fn(),
    onConfirm: vi.fn(),
    ...over,
  });

  it('asks with its title as the label; Delete confirms, Cancel and Escape cancel', () => {
    const p = props({ textTestId: 'x-text', confirmTestId: 'x-confirm' });
    render(<ConfirmDeleteDialog {...p} />);
    const dialog = screen.getByRole('dialog', { name: 'Delete “Intro”?' });
    expect(screen.getByTestId('x-text').textContent).toContain('Its layers go with it.');
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.click(screen.getByTestId('x-confirm'));
    expect(p.onConfirm).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(p.onCancel).toHaveBeenCalledTimes(2);
  });

  it('while busy both buttons wait and Escape does not close it; a failure is shown as an alert', () => {
    const p = props({ busy: true, error: 'The slide is in use.' });
    render(<ConfirmDeleteDialog {...p} />);
    expect((screen.getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Delete' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    expect(p.onCancel).not.toHaveBeenCalled();
    expect(screen.getByRole('alert').textContent).toContain('The slide is in use.');
  });

  it('focuses Cancel only when asked to', async () => {
    const { unmount } = render(<ConfirmDeleteDialog {...props({ focusCancel: true })} />);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' })));
    unmount();
    render(<ConfirmDeleteDialog {...props()} />);
    await waitFor(() => expect(screen.getByRole('dialog').contains(document.activeElement)).toBe(true));
    expect(document.activeElement).not.toBe(screen.getByRole('button', { name: 'Cancel' }));
  });

  it('shows nothing when closed', () => {
    render(<ConfirmDeleteDialog {...props({ open: false })} />);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('LoadFailed', () => {
  it('says why and retries on request', () => {
    const onRetry = vi.fn();
    render(
      <LoadFailed retryLabel="Try again" onRetry={onRetry}>
        The carousel could not be loaded.
      </LoadFailed>,
    );
    expect(screen.getByRole('alert').textContent).toContain('The carousel could not be loaded.');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });
});
