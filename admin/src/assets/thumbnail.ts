/**
 * Thumbnails made in the browser before an upload (the server stores them beside the asset; it never decodes media
 * itself): an image scaled to at most THUMB_PX on its longer side, a video's frame a little after its start as its
 * poster. WebP where the browser encodes it, else JPEG. Anything else, or a file the browser cannot decode, has none.
 */

export const THUMB_PX = 320;
const QUALITY = 0.82;
/** A video that does not give a frame within this time gets no poster (an unsupported codec, say). */
const VIDEO_TIMEOUT_MS = 10_000;

/** The size of a w × h picture scaled down (never up) to fit THUMB_PX. */
export function thumbSize(w: number, h: number, max = THUMB_PX): { width: number; height: number } {
  const scale = Math.min(1, max / Math.max(w, h, 1));
  return { width: Math.max(1, Math.round(w * scale)), height: Math.max(1, Math.round(h * scale)) };
}

function toBlob(canvas: HTMLCanvasElement, type: string): Promise<Blob | null> {
  return new Promise((resolve) => canvas.toBlob(resolve, type, QUALITY));
}

/** The picture on a canvas of its thumbnail size, encoded (a browser that cannot write WebP answers PNG: then JPEG). */
async function encode(source: CanvasImageSource, w: number, h: number): Promise<Blob | null> {
  const { width, height } = thumbSize(w, h);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d');
  if (!ctx) return null;
  // A transparent PNG over white: JPEG has no alpha and would turn it black.
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, width, height);
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(source, 0, 0, width, height);
  const webp = await toBlob(canvas, 'image/webp');
  if (webp && webp.type === 'image/webp') return webp;
  return toBlob(canvas, 'image/jpeg');
}

async function imageThumbnail(file: Blob): Promise<Blob | null> {
  if (typeof createImageBitmap === 'function') {
    const bitmap = await createImageBitmap(file);
    try {
      return await encode(bitmap, bitmap.width, bitmap.height);
    } finally {
      bitmap.close();
    }
  }
  const url = URL.createObjectURL(file);
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    return await encode(img, img.naturalWidth, img.naturalHeight);
  } finally {
    URL.revokeObjectURL(url);
  }
}

function once(target: EventTarget, ok: string, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => done(new Error('timeout')), ms);
    const done = (err?: Error) => {
      clearTimeout(timer);
      target.removeEventListener(ok, onOk);
      target.removeEventListener('error', onError);
      if (err) reject(err);
      else resolve();
    };
    const onOk = () => done();
    const onError = () => done(new Error('decode'));
    target.addEventListener(ok, onOk);
    target.addEventListener('error', onError);
  });
}

async function videoPoster(file: Blob): Promise<Blob | null> {
  const url = URL.createObjectURL(file);
  const video = document.createElement('video');
  video.muted = true;
  video.playsInline = true;
  video.preload = 'auto';
  try {
    const loaded = once(video, 'loadeddata', VIDEO_TIMEOUT_MS);
    video.src = url;
    await loaded;
    // A frame a little in (the first is often black), never past the end.
    const at = Number.isFinite(video.duration) && video.duration > 0 ? Math.min(1, video.duration / 10) : 0;
    if (at > 0) {
      const seeked = once(video, 'seeked', VIDEO_TIMEOUT_MS);
      video.currentTime = at;
      await seeked;
    }
    if (!video.videoWidth || !video.videoHeight) return null;
    return await encode(video, video.videoWidth, video.videoHeight);
  } finally {
    video.removeAttribute('src');
    video.load();
    URL.revokeObjectURL(url);
  }
}

/** The thumbnail of an image or the poster of a video (by its MIME type), or null (other kinds, or the browser cannot decode it). */
export async function makeThumbnail(file: Blob, type = file.type): Promise<Blob | null> {
  try {
    if (type.startsWith('image/')) return await imageThumbnail(file);
    if (type.startsWith('video/')) return await videoPoster(file);
  } catch {
    /* no thumbnail: the list shows the kind's icon instead */
  }
  return null;
}
