import fs from 'node:fs';
import { createRequire } from 'node:module';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';

let ready: Promise<unknown> | undefined;

/** The texts of the QR codes in a picture (PNG or JPEG bytes), read by ZXing (the capture app's decoder) in Node. */
export async function readQrCodes(image: Buffer): Promise<string[]> {
  ready ??= prepareZXingModule({
    overrides: { wasmBinary: fs.readFileSync(createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm')).buffer as ArrayBuffer },
    fireImmediately: true,
  });
  await ready;
  return (await readBarcodes(new Blob([new Uint8Array(image)]), { formats: ['QRCode'] })).map((b) => b.text);
}
