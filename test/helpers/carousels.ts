import { expect } from 'vitest';
import { uid, type TestClient } from './app.js';
import { accountPath } from './console.js';
import { made } from './leads.js';

type Row = Record<string, unknown>;

/**
 * Carousels, their parts, groups, codes and collections made through the console API (201 expected), for the player,
 * sync and collection-page tests.
 */
export const makeCarousel = (c: TestClient, a: string, extra: Row = {}) => made(c, a, 'carousels', { c_title: `Carousel ${uid()}`, c_name: uid(), ...extra });

export const makeVariant = (c: TestClient, a: string, carouselId: unknown, extra: Row = {}) =>
  made(c, a, 'variants', { v_carouselid: carouselId, v_title: 'Landscape', v_name: uid(), v_width: 1920, v_height: 1080, ...extra });

export const makeSlide = (c: TestClient, a: string, carouselId: unknown, extra: Row = {}) =>
  made(c, a, 'slides', { sl_carouselid: carouselId, sl_title: `Slide ${uid()}`, ...extra });

export const makeLayer = (c: TestClient, a: string, slideId: unknown, variantId: unknown, extra: Row) =>
  made(c, a, 'layers', { ly_slideid: slideId, ly_variantid: variantId, ...extra });

/** A carousel with one variant and `slides` slides, each with an image layer of `assetId` (when given). */
export async function simpleCarousel(
  c: TestClient,
  a: string,
  slides = 1,
  assetId?: unknown,
  extra: Row = {},
): Promise<{ carousel: Row; variant: Row; slides: Row[]; layers: Row[] }> {
  const carousel = await makeCarousel(c, a, extra);
  const variant = await makeVariant(c, a, carousel.id);
  const out: Row[] = [];
  const layers: Row[] = [];
  for (let i = 0; i < slides; i++) {
    const slide = await makeSlide(c, a, carousel.id, { sl_title: `Slide ${i + 1}` });
    out.push(slide);
    if (assetId) layers.push(await makeLayer(c, a, slide.id, variant.id, { ly_type: 'image', ly_assetid: assetId }));
  }
  return { carousel, variant, slides: out, layers };
}

/** A group of the carousels in this order (PUT items), with an optional standby carousel. */
export async function makeGroup(c: TestClient, a: string, carouselIds: unknown[], standby?: unknown): Promise<Row> {
  const group = await made(c, a, 'carousel-groups', { cg_title: `Group ${uid()}`, ...(standby ? { cg_standby_carouselid: standby } : {}) });
  const res = await c.put(`${accountPath(a, 'carousel-groups')}/${group.id}/items`, { ids: carouselIds });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return group;
}

/** A player code of a group; answers the code's record (cc_code is the credential). */
export const makeCode = (c: TestClient, a: string, groupId: unknown, extra: Row = {}) => made(c, a, 'codes', { cc_groupid: groupId, cc_title: `Totem ${uid()}`, ...extra });

/** A collection of these assets in order. */
export async function makeCollection(c: TestClient, a: string, assetIds: unknown[], extra: Row = {}): Promise<Row> {
  const collection = await made(c, a, 'collections', { co_title: `Collection ${uid()}`, co_name: uid(), ...extra });
  const res = await c.put(`${accountPath(a, 'collections')}/${collection.id}/assets`, { ids: assetIds });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return collection;
}
