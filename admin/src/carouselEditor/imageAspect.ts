import type { Row } from './layerModel';

/** An image's proportions (width / height) from its thumbnail or file, or nothing within a second. */
export function imageAspect(asset: Row | undefined): Promise<number | undefined> {
  const src = (asset?.thumbnail_url as string | undefined) || (asset?.kind === 'image' ? (asset?.url as string | undefined) : undefined);
  if (!src || typeof Image === 'undefined') return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const img = new Image();
    const timer = setTimeout(() => resolve(undefined), 1000);
    img.onload = () => {
      clearTimeout(timer);
      resolve(img.naturalWidth > 0 && img.naturalHeight > 0 ? img.naturalWidth / img.naturalHeight : undefined);
    };
    img.onerror = () => {
      clearTimeout(timer);
      resolve(undefined);
    };
    img.src = src;
  });
}
