import type { z } from 'zod';
import type { Config } from '../config.js';
import { emailOnlySchema, loginSchema, resetPasswordSchema } from '../../resources/auth.js';
import { signupSchema } from '../../resources/signup.js';
import { inviteAcceptSchema } from '../../resources/invites.js';
import { handoffAcceptSchema } from '../../resources/handoffs.js';
import { meetingAcceptSchema, meetingRequestSchema, slotGenerateSchema } from '../../resources/meetings.js';
import { messageSchema } from '../../resources/conversations.js';
import { assetFileSchema, assetSignSchema } from '../../resources/assets.js';
import { orderedIdsSchema } from '../../resources/collections.js';
import { playEventsSchema, playStatusSchema } from '../services/player.js';
import { testBody } from '../console/integrations.js';
import { scanBody } from '../console/scan.js';
import { hasLogoBody } from '../routes/accountLogo.js';
import { namesBody } from '../routes/profile.js';
import { apiTokenCreateSchema } from '../../resources/apiTokens.js';

/** Who may call a route: a visitor (no sign-in), a signed-in user (cookie, or a bearer token on an account's routes). */
export type Access = 'public' | 'user';

/** What the document says of a route that is not one of a declaration's generic routes. */
export interface RouteNote {
  tag: string;
  summary: string;
  /** The JSON body's zod schema, where the route validates with one. */
  body?: (config: Config) => z.ZodType;
  /** A body that is not JSON (a file, a CSV). */
  rawBody?: string;
  /** Default 'user'. */
  access?: Access;
  /** What a success answers, when not JSON: its media type. */
  produces?: string;
  /** The success status, when not 200. */
  status?: number;
}

const note = (tag: string, summary: string, more: Omit<RouteNote, 'tag' | 'summary'> = {}): RouteNote => ({ tag, summary, ...more });

/**
 * The hand-written routes, by "METHOD /path" below /api/1 ({params} as OpenAPI writes them). A declaration's generic
 * routes (list, get, create, update, delete, order, export, bulk, history, trash) are described from the declaration
 * (api/openapi/resourceOperations.ts) and need no line here; a mounted route found in neither still appears in the
 * document, with a summary that says it is not described yet.
 */
export const ROUTE_NOTES: Record<string, RouteNote> = {
  'POST /auth/web': note('auth', 'Sign in with e-mail and password; answers the session, permissions and memberships', { access: 'public', body: () => loginSchema }),
  'GET /auth/logout': note('auth', 'Sign out (only from our own pages, or with the CSRF header)', { access: 'public' }),
  'POST /auth/logout': note('auth', 'Sign out', { access: 'public' }),
  'GET /auth/me': note('auth', 'The session: the user, the permissions and the memberships'),
  'GET /auth/tokens': note('auth', "The caller's API tokens (never their secrets)"),
  'POST /auth/tokens': note('auth', 'A new API token for one account and role; its secret is in this answer only', { body: () => apiTokenCreateSchema, status: 201 }),
  'DELETE /auth/tokens/{id}': note('auth', "Revoke one of the caller's API tokens"),
  'GET /auth/accounts': note('auth', "The caller's memberships"),
  'GET /auth/guest-token': note('auth', 'A guest token for the password reset (header X-Guest-Token)', { access: 'public' }),
  'PUT /auth/reset-password': note('auth', 'Set a new password with the mailed reset token', { access: 'public', body: (c) => resetPasswordSchema(c.passwordMinLength) }),
  'POST /auth/forgot-password': note('auth', 'Mail a password reset link (the same answer whether or not the address exists)', { access: 'public', body: () => emailOnlySchema }),
  'POST /auth/resend-activation': note('auth', 'Mail the activation link again', { access: 'public', body: () => emailOnlySchema }),
  'POST /auth/signup': note(
    'auth',
    "Self sign-up for an address of an enabled account's e-mail domain: 201 {code: activation_sent} (also when the address has a user, who is mailed instead), else 422 company_has_no_account",
    { access: 'public', body: (c) => signupSchema(c.passwordMinLength), status: 201 },
  ),
  'GET /users/verify/{token}': note('auth', "Confirm a user's e-mail address with the mailed token", { access: 'public' }),

  'POST /invite/accept': note('invitations', 'Accept an invitation: a new user gives names and password, an existing one signs in', {
    access: 'public',
    body: (c) => inviteAcceptSchema(c.passwordMinLength, true),
  }),
  'GET /invite/{token}': note('invitations', 'An invitation by its token: the account, the e-mail, whether the user exists', { access: 'public' }),

  'GET /register/{eventId}': note('registration', "An event's public registration form, style and consent text", { access: 'public' }),
  'GET /register/{eventId}/style.css': note('registration', "The registration form style's custom CSS", { access: 'public', produces: 'text/css' }),
  'POST /register/{eventId}': note('registration', 'Register for an event: the answers of its registration form (rate-limited)', { access: 'public', status: 201 }),

  'GET /c/{token}': note('collections', "A collection's public page: its assets and the showing layer's download form", { access: 'public' }),
  'GET /c/{token}/style.css': note('collections', "The collection page form style's custom CSS", { access: 'public', produces: 'text/css' }),
  'POST /c/{token}/leads': note('collections', "Fill in a collection's download form: stores a lead, answers the download links (rate-limited)", { access: 'public', status: 201 }),

  'GET /play/{code}': note('player', "The player's manifest for a code (the code is the credential)", { access: 'public' }),
  'POST /play/{code}/events': note('player', "The player's play events (the code is the credential)", { access: 'public', body: () => playEventsSchema }),
  'POST /play/{code}/status': note('player', "The player's status every 60 s: version, screen, online since, last error (the code is the credential)", {
    access: 'public',
    body: () => playStatusSchema,
  }),

  'POST /handoff/accept': note('handoffs', 'Accept a lead handed to you, by the mailed token', { access: 'public', body: () => handoffAcceptSchema }),
  'GET /handoff/{token}': note('handoffs', 'A handoff by its mailed token', { access: 'public' }),
  'GET /meet/{eventId}': note('meetings', 'An event open for meetings and its free slots to come', { access: 'public' }),
  'POST /meet/{eventId}': note('meetings', 'Ask for a meeting in a slot (honeypot `website`); 409 slot_full when it is taken', {
    access: 'public',
    body: () => meetingRequestSchema,
    status: 201,
  }),
  'GET /meeting/{token}': note('meetings', "A meeting request by the host's mailed token", { access: 'public' }),
  'POST /meeting/accept': note('meetings', 'Accept or decline a meeting request by the mailed token', { access: 'public', body: () => meetingAcceptSchema }),
  'GET /handoffs': note('handoffs', 'The handoffs to and from the caller, over every account (list conventions)'),
  'GET /conversation/{token}': note('conversations', 'A conversation by its mailed token: subject, account and messages (from "visitor" or a first name)', { access: 'public' }),
  'POST /conversation/{token}/messages': note('conversations', "The visitor's reply (plain text, at most 10,000 characters); mails the lead's owner", {
    access: 'public',
    body: () => messageSchema,
    status: 201,
  }),
  'GET /conversation/{token}/events': note('conversations', 'Server-Sent Events: `event: message` with the message JSON per new message', {
    access: 'public',
    produces: 'text/event-stream',
  }),
  'GET /accounts/{accountId}/conversations/{id}/messages': note('conversations', "A conversation's messages, oldest first; marks it read for the caller"),
  'POST /accounts/{accountId}/conversations/{id}/messages': note('conversations', "The caller's message; mails the lead the link to the conversation", {
    body: () => messageSchema,
    status: 201,
  }),
  'GET /accounts/{accountId}/conversations/{id}/events': note('conversations', 'Server-Sent Events: `event: message` with the message JSON per new message', {
    produces: 'text/event-stream',
  }),

  'GET /jobs': note('jobs', "The job queue's waiting and failed jobs, in all and by job name (root only): {waiting, failed, byName}"),

  'POST /users/import/csv': note('users', 'Import users from a CSV file (root only)', { rawBody: 'multipart/form-data' }),
  'GET /accounts/{accountId}/users/unlinked': note('accountUsers', 'Users who are not members of the account (for the member picker)'),
  'GET /emails/preview/{template}/{userId}': note('emails', 'An e-mail (signup, resetpassword, account_exists) as it would be sent to a user: {html, subject, text}'),

  'GET /storage/folders': note('storage', "The media library's top folders"),
  'GET /storage/folders/{id}': note('storage', 'A folder'),
  'GET /storage/folders/{id}/parents': note('storage', "A folder's parents, for the breadcrumb"),
  'GET /storage/folders/{id}/files': note('storage', "A folder's files"),
  'POST /storage/folders': note('storage', 'Create a folder'),
  'PUT /storage/folders': note('storage', 'Rename or move a folder'),
  'DELETE /storage/folders/{id}': note('storage', 'Delete a folder'),
  'POST /storage/sign': note('storage', 'A signed upload URL for a new file'),
  'POST /storage/files': note('storage', 'Record an uploaded file in a folder'),
  'GET /storage/files/{id}': note('storage', 'A file'),
  'DELETE /storage/files/{id}': note('storage', 'Delete a file and its stored bytes'),
  'GET /accounts/{accountId}/uploadurl/logo': note('accounts', "A signed upload URL for the account's logo"),
  'PUT /accounts/{accountId}/haslogo': note('accounts', 'Say whether the account has a logo', { body: () => hasLogoBody }),
  'GET /accounts/{accountId}/summary': note('accounts', "The account's figures for the console's home: active events, members, pending invites"),

  'GET /app/events': note('capture app', "The capture app's events of the caller, with their forms"),
  'GET /profile': note('profile', "The caller's profile"),
  'PUT /profile': note('profile', "Change the caller's names", { body: () => namesBody }),
  'GET /profile/picture': note('profile', "The caller's profile picture", { produces: 'image/*' }),
  'PUT /profile/picture': note('profile', 'Replace the profile picture (JPEG, PNG or WebP, at most 2 MB)', { rawBody: 'image/*' }),
  'DELETE /profile/picture': note('profile', 'Remove the profile picture'),

  'PUT /accounts/{accountId}/lead-files/{id}': note('leads', "Upload a card photo by the device's id", { rawBody: 'image/*' }),
  'GET /accounts/{accountId}/lead-files/{id}': note('leads', 'A card photo', { produces: 'image/*' }),
  'POST /accounts/{accountId}/invites/{id}/resend': note('invites', 'Send an invitation again (a new link, seven more days)'),
  'GET /accounts/{accountId}/events/{id}/graph': note('events', 'An event with its forms in order and its registration form'),
  'GET /accounts/{accountId}/leads/owners': note('leads', "The people (name, e-mail) behind owner ids of the account's leads: ?ids=a,b (at most 100)"),
  'GET /accounts/{accountId}/events/{id}/leads/export.csv': note('events', "The event's leads as CSV (one column per form element)", { produces: 'text/csv' }),
  'POST /accounts/{accountId}/events/{id}/scan': note('events', "Ask the event's badge-scan integration for the person behind a badge code", { body: () => scanBody }),
  'GET /accounts/{accountId}/forms/{id}/graph': note('forms', 'A form with its elements in order and each list tree'),
  'POST /accounts/{accountId}/lists/{id}/import': note('lists', "Import a list's items (CSV or JSON tree)", { rawBody: 'multipart/form-data' }),
  'GET /accounts/{accountId}/lists/{id}/export.csv': note('lists', "A list's items as CSV", { produces: 'text/csv' }),
  'GET /accounts/{accountId}/lists/{id}/tree': note('lists', "A list's items as a tree"),
  'GET /accounts/{accountId}/form-styles/{id}/style.css': note('form-styles', "The style's custom CSS", { produces: 'text/css' }),
  'POST /accounts/{accountId}/integrations/{id}/test': note('integrations', 'A test scan against the provider: {answers}, or 502/504', { body: () => testBody }),
  'POST /accounts/{accountId}/mail-templates/preview': note('mail-templates', 'Render a template that is not saved yet'),
  'GET /accounts/{accountId}/mail-templates/builtin/{name}': note('mail-templates', 'A built-in template, as a starting point'),
  'GET /accounts/{accountId}/mail-templates/{id}/preview': note('mail-templates', 'Render a saved template'),
  'POST /accounts/{accountId}/mail-templates/{id}/test': note('mail-templates', 'Send a saved template to the caller'),
  'POST /accounts/{accountId}/assets/sign': note('assets', 'Signed upload URLs for new asset files', { body: () => assetSignSchema }),
  'PUT /accounts/{accountId}/assets/{id}/file': note('assets', "Replace an asset's file (after its upload)", { body: () => assetFileSchema }),
  'GET /accounts/{accountId}/assets/{id}/places': note('assets', 'Where carousels show an asset (layers, navigation buttons): what a delete or a replacement changes'),
  'GET /accounts/{accountId}/collections/{id}/assets': note('collections', "A collection's assets in order"),
  'PUT /accounts/{accountId}/collections/{id}/assets': note('collections', "Set a collection's assets in order", { body: () => orderedIdsSchema }),
  'GET /accounts/{accountId}/carousels/{id}/graph': note('carousels', 'A carousel with its variants, slides and layers'),
  'GET /accounts/{accountId}/carousels/{id}/manifest': note('carousels', "A carousel's player manifest (for the preview)"),
  'GET /accounts/{accountId}/carousel-groups/{id}/items': note('carousel-groups', "A group's carousels in order"),
  'PUT /accounts/{accountId}/carousel-groups/{id}/items': note('carousel-groups', "Set a group's carousels in order", { body: () => orderedIdsSchema }),
  'GET /accounts/{accountId}/stats/leads': note('statistics', 'Leads by day, week or group (?from=&to=&by=)'),
  'GET /accounts/{accountId}/stats/plays': note('statistics', 'Plays by day, week or group (?from=&to=&by=)'),
  'GET /accounts/{accountId}/stats/meetings': note('statistics', 'Meetings by the day of their slot, status or host (?from=&to=&group=)'),
  'POST /accounts/{accountId}/meeting-slots/generate': note('meeting-slots', "A day of slots in the account's time zone; 409 slot_overlaps", {
    body: () => slotGenerateSchema,
    status: 201,
  }),
  'GET /accounts/{accountId}/sync/manifest': note('player', "The local media server's manifest of the account's assets (a player code, or a session)", { access: 'public' }),
  'GET /openapi.json': note('meta', 'This document', { access: 'public' }),
};
