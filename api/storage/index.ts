import type { AppContext } from '../context.js';
import type { Config } from '../config.js';
import type { StorageDriver } from './driver.js';
import { LocalDriver } from './local.js';
import { S3Driver } from './s3.js';

export type { StorageDriver } from './driver.js';
export { LocalDriver } from './local.js';
export { S3Driver } from './s3.js';

export function createStorageDriver(config: Config): StorageDriver {
  return config.storage.driver === 's3' ? new S3Driver(config.storage.s3) : new LocalDriver(config.dataDir, config.sessionSecret);
}

/** The app's storage driver, created on first use and kept in context.services. */
export function storageOf(context: AppContext): StorageDriver {
  let driver = context.services.storage as StorageDriver | undefined;
  if (!driver) {
    driver = createStorageDriver(context.config);
    context.services.storage = driver;
  }
  return driver;
}
