import { useCallback, useEffect, useMemo, useRef, useState, type Dispatch, type RefObject } from 'react';
import { ApiRequestError } from '../providers/http';
import type { CarouselEditorApi } from './editorApi';
import { fromGraph, type EditorAction, type EditorState } from './editorState';
import { diffLayers, layerErrors, sameLayers, type Layer } from './layerModel';
import { SaveQueue, type QueueState } from './saveQueue';

export type SaveStatus = 'error' | 'invalid' | 'saving' | 'saved' | 'idle';

const sameSet = (a: ReadonlySet<string>, b: ReadonlySet<string>) => a.size === b.size && [...a].every((k) => b.has(k));

/** Whether every group's layers are what was sent (nothing waits to be saved). */
function sameGroups(local: Record<string, Layer[]>, sent: Record<string, Layer[]>): boolean {
  return Object.keys(local).every((g) => sameLayers(local[g], sent[g]));
}

/**
 * The carousel's server state: loading the graph (again on request), and saving the layers shown. After each change
 * of the layers (when the delay asked for by `saveAfter` has passed) every group whose layers are all valid sends
 * what differs from what was sent, through one SaveQueue; `status` says where that stands.
 */
export function useLayerSync(api: CarouselEditorApi, stateRef: RefObject<EditorState>, layers: EditorState['layers'], dispatch: Dispatch<EditorAction>, onSaved: () => void) {
  const [load, setLoad] = useState<'loading' | 'ready' | 'failed'>('loading');
  /** What the API has been sent, per group: the next save sends the difference to what is shown. */
  const sent = useRef<Record<string, Layer[]>>({});
  const [queueState, setQueueState] = useState<QueueState>({ busy: false, pending: 0, failed: null });
  const [savedOnce, setSavedOnce] = useState(false);
  const [scheduled, setScheduled] = useState(false);
  const [invalid, setInvalid] = useState<ReadonlySet<string>>(() => new Set());

  const queue = useMemo(
    () =>
      new SaveQueue(
        (op, ids) => api.runLayerOp(op, ids),
        setQueueState,
        () => {
          setSavedOnce(true);
          onSaved();
        },
      ),
    [api, onSaved],
  );

  const reload = useCallback(() => {
    let live = true;
    setLoad('loading');
    api.graph().then(
      (graph) => {
        if (!live) return;
        const next = fromGraph(graph, stateRef.current);
        queue.reset();
        queue.known(Object.values(next.layers).flatMap((list) => list.map((l) => l.key)));
        sent.current = next.layers;
        setInvalid(new Set());
        dispatch({ type: 'loaded', graph });
        setLoad('ready');
      },
      () => live && setLoad('failed'),
    );
    return () => {
      live = false;
    };
  }, [api, queue, stateRef, dispatch]);
  useEffect(() => reload(), [reload]);

  // ---- saving: what is shown minus what was sent, for every group whose layers are all valid

  const syncTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const syncDelay = useRef(0);
  const sync = useCallback(() => {
    clearTimeout(syncTimer.current);
    syncTimer.current = undefined;
    setScheduled(false);
    const s = stateRef.current;
    const bad = new Set<string>();
    for (const group of new Set([...Object.keys(s.layers), ...Object.keys(sent.current)])) {
      const local = s.layers[group];
      if (!local) {
        // the slide or variant is gone, and its layers with it
        delete sent.current[group];
        continue;
      }
      const stored = sent.current[group] ?? [];
      if (sameLayers(local, stored)) continue;
      const wrong = local.filter((l) => Object.keys(layerErrors(l.values)).length > 0);
      if (wrong.length) {
        for (const l of wrong) bad.add(l.key);
        continue;
      }
      queue.push(diffLayers(group, stored, local));
      sent.current[group] = local;
    }
    setInvalid((prev) => (sameSet(prev, bad) ? prev : bad));
  }, [queue, stateRef]);

  useEffect(() => {
    if (load !== 'ready') return;
    clearTimeout(syncTimer.current);
    const delay = syncDelay.current;
    syncDelay.current = 0;
    setScheduled(true);
    syncTimer.current = setTimeout(sync, delay);
  }, [layers, load, sync]);
  // leaving the editor sends what waits (the calls finish in the background)
  useEffect(
    () => () => {
      if (syncTimer.current !== undefined) sync();
    },
    [sync],
  );

  /** The next change of the layers is saved once this long has passed without another. */
  const saveAfter = useCallback((ms: number) => {
    syncDelay.current = ms;
  }, []);

  const failed = queueState.failed;
  const status: SaveStatus = failed
    ? 'error'
    : invalid.size
      ? 'invalid'
      : queueState.busy || queueState.pending || (scheduled && !sameGroups(layers, sent.current))
        ? 'saving'
        : savedOnce
          ? 'saved'
          : 'idle';
  /** Edits the API does not have yet (waiting, failed, or not valid to send). */
  const unsaved = status === 'error' || status === 'invalid' || status === 'saving';

  /** The API's field errors for the layer whose save failed, shown in the inspector. */
  const failedFields = useMemo(() => {
    if (!failed || failed.op.kind === 'order' || !(failed.error instanceof ApiRequestError)) return undefined;
    return { key: failed.op.key, fields: failed.error.body.fields ?? {} };
  }, [failed]);

  return { load, reload, queue, sync, saveAfter, status, unsaved, invalid, failed, failedFields };
}
