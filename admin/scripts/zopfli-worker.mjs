// One of admin/scripts/zopfli.mjs's workers: gzips each buffer it is sent with zopfli and sends the result back.
import { parentPort, workerData } from 'node:worker_threads';
import { gzipAsync } from '@gfx/zopfli';

parentPort.on('message', async (raw) => {
  const gz = await gzipAsync(Buffer.from(raw), workerData);
  parentPort.postMessage(gz);
});
