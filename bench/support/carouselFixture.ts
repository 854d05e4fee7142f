// A carousel group for the player's benchmarks: carousels × slides with two variants each (landscape, portrait) and
// five layers a slide (images, a video or an iframe, a hotspot to the next carousel, a QR code of a collection), about
// one asset a slide, and a code for the group. One multi-row INSERT per table (layers in batches of 500).
import crypto from 'node:crypto';
import type { Knex } from 'knex';

export interface CarouselGroupFixture {
  groupId: string;
  /** The group's code (the player's credential). */
  code: string;
  carousels: string[];
  slides: string[];
  layers: number;
  assets: number;
}

const hex = (n: number) => crypto.randomBytes(n).toString('hex');

export async function seedCarouselGroup(db: Knex, a: string, carouselCount: number, slidesPer: number, code = 'ACDEFGHJKMNP'): Promise<CarouselGroupFixture> {
  const asset = (kind: 'image' | 'video', i: number) => ({
    as_accountid: a,
    as_title: `${kind} ${i}`,
    as_name: `${kind}-${i}`,
    as_fileid: crypto.randomUUID(),
    as_path: `/assets/${a}/2026/11`,
    as_filename: kind === 'image' ? `slide-${i}.jpg` : `clip-${i}.mp4`,
    as_type: kind === 'image' ? 'image/jpeg' : 'video/mp4',
    as_size: kind === 'image' ? 350_000 + i : 12_000_000 + i,
    as_sha256: hex(32),
    as_version: 1 + (i % 3),
    as_thumb_fileid: crypto.randomUUID(),
    as_thumb_type: 'image/jpeg',
  });
  const slideCount = carouselCount * slidesPer;
  const images: string[] = (
    await db('assets')
      .insert(Array.from({ length: slideCount + 6 }, (_, i) => asset('image', i)))
      .returning('as_id')
  ).map((r) => r.as_id);
  const videos: string[] = (
    await db('assets')
      .insert(Array.from({ length: Math.ceil(slideCount / 10) }, (_, i) => asset('video', i)))
      .returning('as_id')
  ).map((r) => r.as_id);
  const collections: string[] = (
    await db('collections')
      .insert(
        Array.from({ length: 5 }, (_, i) => ({ co_accountid: a, co_title: `Brochures ${i}`, co_name: `brochures-${i}`, co_token: crypto.randomBytes(16).toString('base64url') })),
      )
      .returning('co_id')
  ).map((r) => r.co_id);
  const carousels: string[] = (
    await db('carousels')
      .insert(Array.from({ length: carouselCount }, (_, i) => ({ c_accountid: a, c_title: `Carousel ${i + 1}`, c_name: `carousel-${i + 1}` })))
      .returning('c_id')
  ).map((r) => r.c_id);
  const variantRows = carousels.flatMap((c, i) => [
    {
      v_accountid: a,
      v_carouselid: c,
      v_title: 'Landscape',
      v_name: 'landscape',
      v_width: 1920,
      v_height: 1080,
      v_navigation_enabled: true,
      v_next_assetid: images[slideCount],
      v_next_x: 1800,
      v_next_y: 500,
      v_prev_assetid: images[slideCount + 1],
      v_prev_x: 20,
      v_prev_y: 500,
      v_home_assetid: images[slideCount + 2],
      v_home_x: 900,
      v_home_y: 980,
      v_screensaver_timeout_s: 120 + i,
    },
    { v_accountid: a, v_carouselid: c, v_title: 'Portrait', v_name: 'portrait', v_width: 1080, v_height: 1920, v_bgcolor: '#101820' },
  ]);
  const variants = (await db('variants').insert(variantRows).returning(['v_id', 'v_carouselid', 'v_name'])) as { v_id: string; v_carouselid: string; v_name: string }[];
  const variantOf = (c: string, name: string) => variants.find((v) => v.v_carouselid === c && v.v_name === name)!.v_id;
  const slideRows = carousels.flatMap((c, ci) =>
    Array.from({ length: slidesPer }, (_, si) => ({
      sl_accountid: a,
      sl_carouselid: c,
      sl_title: `Slide ${ci + 1}.${si + 1}`,
      sl_subtitle: 'A subtitle of a slide',
      sl_order: si,
      sl_duration_ms: si % 4 ? null : 10_000,
    })),
  );
  const slides = (await db('slides').insert(slideRows).returning(['sl_id', 'sl_carouselid'])) as { sl_id: string; sl_carouselid: string }[];
  // 5 layers a slide: landscape: a full-screen image, a hotspot to the next carousel, a QR code of a collection;
  // portrait: the image again and a video (or an iframe)
  const layerRows = slides.flatMap((s, i) => {
    const L = variantOf(s.sl_carouselid, 'landscape');
    const P = variantOf(s.sl_carouselid, 'portrait');
    const next = carousels[(carousels.indexOf(s.sl_carouselid) + 1) % carousels.length];
    const base = { ly_accountid: a, ly_slideid: s.sl_id };
    return [
      { ...base, ly_variantid: L, ly_type: 'image', ly_assetid: images[i], ly_order: 0, ly_width: 1920, ly_height: 1080, ly_title: 'Background' },
      { ...base, ly_variantid: L, ly_type: 'hotspot', ly_hotspot_carouselid: next, ly_order: 1, ly_x: 1500, ly_y: 800, ly_width: 300, ly_height: 200, ly_title: 'More' },
      {
        ...base,
        ly_variantid: L,
        ly_type: 'collectionqr',
        ly_collectionid: collections[i % collections.length],
        ly_order: 2,
        ly_x: 60,
        ly_y: 760,
        ly_width: 260,
        ly_height: 260,
        ly_qr_fg: '#000000',
        ly_qr_bg: '#ffffff',
      },
      { ...base, ly_variantid: P, ly_type: 'image', ly_assetid: images[i], ly_order: 0, ly_width: 1080, ly_height: 1920 },
      i % 10 === 0
        ? { ...base, ly_variantid: P, ly_type: 'video', ly_assetid: videos[i / 10], ly_order: 1, ly_y: 1200, ly_width: 1080, ly_height: 608, ly_loop: true }
        : { ...base, ly_variantid: P, ly_type: 'iframe', ly_iframe_url: `https://example.com/page/${i}`, ly_order: 1, ly_y: 1200, ly_width: 1080, ly_height: 608 },
    ];
  });
  for (let i = 0; i < layerRows.length; i += 500) await db('layers').insert(layerRows.slice(i, i + 500));
  const [group] = await db('carousel_groups').insert({ cg_accountid: a, cg_title: 'Hall 1', cg_standby_carouselid: carousels[0] }).returning('cg_id');
  await db('carousel_group_items').insert(carousels.map((c, i) => ({ gi_groupid: group.cg_id, gi_carouselid: c, gi_order: i })));
  await db('carousel_codes').insert({ cc_accountid: a, cc_groupid: group.cg_id, cc_code: code, cc_title: 'Totem 1' });
  return { groupId: group.cg_id as string, code, carousels, slides: slides.map((s) => s.sl_id), layers: layerRows.length, assets: images.length + videos.length };
}
