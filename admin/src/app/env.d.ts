/// <reference types="vite/client" />

/** Set by admin/vite.app.config.ts: package.json's version and the commit (or build time) of this build. */
declare const __APP_VERSION__: string;
declare const __APP_BUILD__: string;
