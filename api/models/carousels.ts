import type { Knex } from 'knex';
import { scoped } from './scope.js';
import { assets, carousels, collections, layers, slides, variants } from '../../resources/index.js';
import { serializeAsset } from '../services/assets.js';

type Row = Record<string, unknown>;

export interface CarouselGraph {
  carousel: Row;
  variants: Row[];
  /** In order, each with its layers per variant id (in z-order). */
  slides: (Row & { layers: Record<string, Row[]> })[];
}

/**
 * Carousels with their variants, slides in order and every slide's layers per variant: four queries however many
 * carousels, slides and layers (the editor and the player manifest both read this).
 */
export async function carouselGraphs(db: Knex, accountId: string, carouselIds: string[]): Promise<Map<string, CarouselGraph>> {
  const out = new Map<string, CarouselGraph>();
  if (!carouselIds.length) return out;
  const [carouselRows, variantRows, slideRows, layerRows] = await Promise.all([
    scoped(db, carousels, accountId).whereIn('c_id', carouselIds),
    scoped(db, variants, accountId).whereIn('v_carouselid', carouselIds).orderBy([{ column: 'v_width' }, { column: 'v_height' }, { column: 'v_id' }]),
    scoped(db, slides, accountId).whereIn('sl_carouselid', carouselIds).orderBy([{ column: 'sl_order' }, { column: 'sl_id' }]),
    scoped(db, layers, accountId)
      .join('slides', 'slides.sl_id', 'layers.ly_slideid')
      .whereIn('slides.sl_carouselid', carouselIds)
      .select('layers.*')
      .orderBy([{ column: 'layers.ly_order' }, { column: 'layers.ly_id' }]),
  ]);
  for (const c of carouselRows as Row[]) out.set(String(c.c_id), { carousel: c, variants: [], slides: [] });
  for (const v of variantRows as Row[]) out.get(String(v.v_carouselid))?.variants.push(v);
  const slideById = new Map<string, Row & { layers: Record<string, Row[]> }>();
  for (const s of slideRows as Row[]) {
    const slide = { ...s, layers: {} as Record<string, Row[]> };
    slideById.set(String(s.sl_id), slide);
    out.get(String(s.sl_carouselid))?.slides.push(slide);
  }
  for (const l of layerRows as Row[]) {
    const slide = slideById.get(String(l.ly_slideid));
    if (!slide) continue;
    (slide.layers[String(l.ly_variantid)] ??= []).push(l);
  }
  return out;
}

/** The assets of the account by id, serialized with their URLs (one query). */
export async function assetsById(db: Knex, accountId: string, ids: string[]): Promise<Map<string, Row>> {
  const unique = [...new Set(ids.filter(Boolean))];
  if (!unique.length) return new Map();
  const rows: Row[] = await scoped(db, assets, accountId).whereIn('as_id', unique);
  return new Map(rows.map((r) => [String(r.as_id), { ...serializeAsset(r), id: r.as_id }]));
}

/** Collections of the account by id (token and title, for QR layers). */
export async function collectionsById(db: Knex, accountId: string, ids: string[]): Promise<Map<string, Row>> {
  const unique = [...new Set(ids.filter(Boolean))];
  if (!unique.length) return new Map();
  const rows: Row[] = await scoped(db, collections, accountId).whereIn('co_id', unique).select('co_id', 'co_title', 'co_token');
  return new Map(rows.map((r) => [String(r.co_id), r]));
}

/** Every asset id a carousel graph shows (layers and navigation buttons). */
export function assetIdsOf(graphs: Iterable<CarouselGraph>): string[] {
  const ids: string[] = [];
  for (const g of graphs) {
    for (const v of g.variants) for (const b of ['next', 'prev', 'home']) if (v[`v_${b}_assetid`]) ids.push(String(v[`v_${b}_assetid`]));
    for (const s of g.slides) for (const list of Object.values(s.layers)) for (const l of list) if (l.ly_assetid) ids.push(String(l.ly_assetid));
  }
  return ids;
}
