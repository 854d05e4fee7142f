import { accountPath } from '../providers/accountPath';
import { api, ApiRequestError } from '../providers/http';
import type { CarouselGraph } from './editorState';
import type { LayerOp, Row } from './layerModel';

/** The carousel editor's calls (account-console.md section 3: carousels, variants, slides, layers). */
export interface CarouselEditorApi {
  /** GET /carousels/{id}/graph: the carousel, its variants, slides in order with their layers per variant, their assets. */
  graph(): Promise<CarouselGraph>;
  /** One stored step of a layer edit (create, update, delete, or PUT /layers/order for one slide in one variant). */
  runLayerOp(op: LayerOp, ids: Map<string, string>): Promise<void>;
  /** PUT /slides/order: every slide of the carousel in the new order. */
  orderSlides(ids: string[]): Promise<Row[]>;
  removeSlide(id: string): Promise<void>;
  removeVariant(id: string): Promise<void>;
}

/** The id of a layer key, or a clear failure (a call for a layer that was never stored cannot be made). */
function idOf(ids: Map<string, string>, key: string): string {
  const id = ids.get(key);
  if (!id) throw new Error(`layer ${key} is not stored`);
  return id;
}

export function carouselEditorApi(accountId: string, carouselId: string): CarouselEditorApi {
  const path = (...segments: string[]) => accountPath(accountId, ...segments);
  return {
    graph: () => api<CarouselGraph>(path('carousels', carouselId, 'graph')),
    async runLayerOp(op, ids) {
      switch (op.kind) {
        case 'create': {
          const record = await api<Row>(path('layers'), { method: 'POST', body: op.values });
          ids.set(op.key, String(record.ly_id ?? record.id));
          return;
        }
        case 'update':
          await api(path('layers', idOf(ids, op.key)), { method: 'PUT', body: op.patch });
          return;
        case 'delete':
          try {
            await api(path('layers', idOf(ids, op.key)), { method: 'DELETE' });
          } catch (e) {
            // already gone (deleted elsewhere): what the delete wanted
            if (!(e instanceof ApiRequestError && e.status === 404)) throw e;
          }
          ids.delete(op.key);
          return;
        case 'order':
          await api(path('layers', 'order'), { method: 'PUT', body: { ids: op.keys.map((k) => idOf(ids, k)) } });
          return;
      }
    },
    orderSlides: (ids) => api<Row[]>(path('slides', 'order'), { method: 'PUT', body: { ids } }),
    removeSlide: async (id) => {
      await api(path('slides', id), { method: 'DELETE' });
    },
    removeVariant: async (id) => {
      await api(path('variants', id), { method: 'DELETE' });
    },
  };
}
