// Stands in for the `object.entries` polyfill in the admin build (admin/vite.config.ts): node-polyglot (react-admin's
// translations) requires it, and with it get-intrinsic, call-bind and a dozen es-* helpers (about 6 KiB gzipped on every
// signed-in page). Every browser the admin supports has Object.entries; the polyfill's own export is a function of the
// same contract (an object's own enumerable string-keyed [key, value] pairs). Pinned by test/unit/libraryPins.test.ts.
module.exports = Object.entries;
