/**
 * The NOTIFY channels the API processes hear each other on, all LISTENed on one connection per process (the session
 * cache's, api/services/sessionCache.ts). Each is notified by statement triggers on its tables (migrations) and tells the
 * other processes that what they keep from those tables may be stale.
 */
/** Sessions and their users (triggers on users and sessions). */
export const AUTH_CHANNEL = 'leadstage_auth';
/** The player's manifests (api/services/player.ts; triggers of 20261127000700). */
export const MANIFEST_CHANNEL = 'leadstage_manifest';
/** The event graphs (api/services/graphCache.ts; triggers of 20261128001910). */
export const GRAPH_CHANNEL = 'leadstage_graph';
/** The accounts with their members (api/middleware/auth.ts resolveAccount; triggers of 20261128001920). */
export const ACCOUNT_CHANNEL = 'leadstage_account';
/** The records put in or taken out of the trash that hide others (api/models/scope.ts knownTrashed; 20261128002000). */
export const TRASH_CHANNEL = 'leadstage_trash';

export const CHANNELS: readonly string[] = [AUTH_CHANNEL, MANIFEST_CHANNEL, GRAPH_CHANNEL, ACCOUNT_CHANNEL, TRASH_CHANNEL];
