/**
 * The camera, without React: opening the back camera, a still photo resized in the browser, and barcode reading with
 * the browser's BarcodeDetector or, where it has none, the `barcode-detector` package (ZXing as WebAssembly). Its
 * .wasm is part of this build (a hashed asset of our own origin, precached by the service worker), never a CDN.
 */

export type CameraProblem = 'denied' | 'unavailable' | 'insecure';

export class CameraError extends Error {
  constructor(
    public problem: CameraProblem,
    message: string,
  ) {
    super(message);
  }
}

/** The back camera when there is one (a phone), else any. */
export async function openCamera(): Promise<MediaStream> {
  if (!window.isSecureContext || !navigator.mediaDevices?.getUserMedia) throw new CameraError('insecure', 'No camera API here');
  try {
    return await navigator.mediaDevices.getUserMedia({ video: { facingMode: { ideal: 'environment' }, width: { ideal: 1920 }, height: { ideal: 1080 } }, audio: false });
  } catch (e) {
    const name = (e as DOMException)?.name;
    if (name === 'NotAllowedError' || name === 'SecurityError') throw new CameraError('denied', String(e));
    throw new CameraError('unavailable', String(e));
  }
}

export function stopCamera(stream: MediaStream | null | undefined): void {
  stream?.getTracks().forEach((t) => t.stop());
}

/** Longest side and JPEG quality of a card photo: readable for transcription, some 200–400 KB. */
export const PHOTO_MAX_SIDE = 1600;
export const PHOTO_QUALITY = 0.8;

/** The size an image of w×h gets when its longest side is at most `max` (never enlarged). */
export function fitWithin(w: number, h: number, max: number): { width: number; height: number } {
  const scale = Math.min(1, max / Math.max(w, h));
  return { width: Math.max(1, Math.round(w * scale)), height: Math.max(1, Math.round(h * scale)) };
}

function canvasToBlob(canvas: HTMLCanvasElement, quality: number): Promise<Blob> {
  return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('The photo could not be encoded'))), 'image/jpeg', quality));
}

/** The video's current frame as a JPEG, its longest side at most `maxSide`. */
export function captureFrame(video: HTMLVideoElement, maxSide = PHOTO_MAX_SIDE, quality = PHOTO_QUALITY): Promise<Blob> {
  const { width, height } = fitWithin(video.videoWidth, video.videoHeight, maxSide);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  canvas.getContext('2d')!.drawImage(video, 0, 0, width, height);
  return canvasToBlob(canvas, quality);
}

/** A picked image file resized the same way (the profile picture: square crop from the centre). */
export async function resizeImage(file: Blob, maxSide: number, square = false, quality = 0.85): Promise<Blob> {
  const bitmap = await createImageBitmap(file);
  const side = Math.min(bitmap.width, bitmap.height);
  const sx = square ? (bitmap.width - side) / 2 : 0;
  const sy = square ? (bitmap.height - side) / 2 : 0;
  const sw = square ? side : bitmap.width;
  const sh = square ? side : bitmap.height;
  const { width, height } = fitWithin(sw, sh, maxSide);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  canvas.getContext('2d')!.drawImage(bitmap, sx, sy, sw, sh, 0, 0, width, height);
  bitmap.close();
  return canvasToBlob(canvas, quality);
}

interface Detector {
  detect(source: CanvasImageSource): Promise<{ rawValue: string }[]>;
}

const FORMATS = ['qr_code', 'code_128', 'code_39', 'ean_13', 'ean_8', 'upc_a', 'upc_e', 'itf', 'data_matrix', 'pdf417', 'aztec'];

let detector: Promise<Detector> | null = null;

/** The browser's BarcodeDetector when it reads QR codes, else the ZXing polyfill (loaded on first use). */
export function barcodeDetector(): Promise<Detector> {
  detector ??= (async () => {
    const Native = (globalThis as { BarcodeDetector?: { new (o: { formats: string[] }): Detector; getSupportedFormats(): Promise<string[]> } }).BarcodeDetector;
    if (Native) {
      try {
        const supported = await Native.getSupportedFormats();
        if (supported.includes('qr_code')) return new Native({ formats: FORMATS.filter((f) => supported.includes(f)) });
      } catch {
        /* fall through to the polyfill */
      }
    }
    const [{ BarcodeDetector, prepareZXingModule }, { default: wasmUrl }] = await Promise.all([
      import('barcode-detector/ponyfill'),
      import('zxing-wasm/reader/zxing_reader.wasm?url'),
    ]);
    await prepareZXingModule({ overrides: { locateFile: (file: string, prefix: string) => (file.endsWith('.wasm') ? wasmUrl : prefix + file) }, fireImmediately: true });
    return new BarcodeDetector({ formats: FORMATS as never });
  })();
  detector.catch(() => (detector = null));
  return detector;
}

/** Reads the video's frames until a code is found or `signal` aborts; answers the code's text. */
export async function scanVideo(video: HTMLVideoElement, signal: AbortSignal, intervalMs = 200): Promise<string> {
  const d = await barcodeDetector();
  while (!signal.aborted) {
    if (video.readyState >= 2 && video.videoWidth > 0) {
      try {
        const found = await d.detect(video);
        const code = found.find((b) => b.rawValue)?.rawValue;
        if (code) return code;
      } catch {
        /* a frame that could not be read: try the next */
      }
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new DOMException('Scan stopped', 'AbortError');
}
