import type { Knex } from 'knex';
import { scoped } from './scope.js';
import { assets } from '../../resources/assets.js';
import { carousels, layers, slides, variants } from '../../resources/carousels.js';
import { collections } from '../../resources/collections.js';
import { serializeAsset } from './assets.js';

type Row = Record<string, unknown>;

export interface CarouselGraph {
  carousel: Row;
  variants: Row[];
  /** In order, each with its layers per variant id (in z-order). */
  slides: (Row & { layers: Record<string, Row[]> })[];
}

/**
 * The columns a reader needs of each table (the keys that tie the graph together are always read). The player's
 * manifest reads only what it sends: for a large group, parsing unused columns (timestamps above all) was a fifth of
 * the time it takes to build.
 */
export interface GraphColumns {
  carousels: readonly string[];
  variants: readonly string[];
  slides: readonly string[];
  layers: readonly string[];
}

const withKeys = (table: string, columns: readonly string[] | undefined, keys: string[]) =>
  columns ? [...new Set([...keys, ...columns])].map((c) => `${table}.${c}`) : [`${table}.*`];

/**
 * Carousels with their variants, slides in order and every slide's layers per variant: four queries however many
 * carousels, slides and layers (the editor and the player manifest both read this). Every column, unless `columns`
 * names them.
 */
export async function carouselGraphs(db: Knex, accountId: string, carouselIds: string[], columns?: GraphColumns): Promise<Map<string, CarouselGraph>> {
  const out = new Map<string, CarouselGraph>();
  if (!carouselIds.length) return out;
  const [carouselRows, variantRows, slideRows, layerRows] = await Promise.all([
    scoped(db, carousels, accountId)
      .whereIn('c_id', carouselIds)
      .select(withKeys('carousels', columns?.carousels, ['c_id'])),
    scoped(db, variants, accountId)
      .whereIn('v_carouselid', carouselIds)
      .select(withKeys('variants', columns?.variants, ['v_id', 'v_carouselid']))
      .orderBy([{ column: 'v_width' }, { column: 'v_height' }, { column: 'v_id' }]),
    scoped(db, slides, accountId)
      .whereIn('sl_carouselid', carouselIds)
      .select(withKeys('slides', columns?.slides, ['sl_id', 'sl_carouselid']))
      .orderBy([{ column: 'sl_order' }, { column: 'sl_id' }]),
    scoped(db, layers, accountId)
      .join('slides', 'slides.sl_id', 'layers.ly_slideid')
      .whereIn('slides.sl_carouselid', carouselIds)
      .select(withKeys('layers', columns?.layers, ['ly_id', 'ly_slideid', 'ly_variantid']))
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

/** What serializeAsset needs to make an asset's URLs and kind. */
const ASSET_URL_COLUMNS = ['as_id', 'as_path', 'as_fileid', 'as_version', 'as_thumb_fileid', 'as_type'];

/** The assets of the account by id, serialized with their URLs (one query); every column unless `columns` names them. */
export async function assetsById(db: Knex, accountId: string, ids: string[], columns?: readonly string[]): Promise<Map<string, Row>> {
  const unique = [...new Set(ids.filter(Boolean))];
  if (!unique.length) return new Map();
  const rows: Row[] = await scoped(db, assets, accountId)
    .whereIn('as_id', unique)
    .select(columns ? [...new Set([...ASSET_URL_COLUMNS, ...columns])] : '*');
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
