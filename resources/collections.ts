import { z } from 'zod';
import { defineAccountResource } from './define.js';
import { isUuid } from './fields.js';

/** Most assets one collection holds. */
export const COLLECTION_MAX_ASSETS = 500;

/**
 * Ordered assets behind a public link /c/{co_token} (account-console.md: collections). The token is made by the server
 * and never accepted from a client; items are GET/PUT /collections/{id}/assets (ordered asset ids).
 */
export const collections = defineAccountResource({
  name: 'collections',
  table: 'collections',
  prefix: 'co',
  group: 'account_assets',
  icon: 'collections',
  fields: {
    co_title: { kind: 'text', required: true, list: true, sort: true },
    co_name: { kind: 'identifier', required: true, list: true, sort: true },
    co_token: { kind: 'text', required: true, readOnly: true, formHidden: true },
  },
  search: ['co_title', 'co_name'],
  unique: [{ field: 'co_name' }],
  labels: {
    en: {
      name_one: 'Collection',
      name_other: 'Collections',
      fields: { co_title: 'Title', co_name: 'Name', co_token: 'Public link' },
    },
    nl: {
      name_one: 'Collectie',
      name_other: 'Collecties',
      fields: { co_title: 'Titel', co_name: 'Naam', co_token: 'Openbare link' },
    },
  },
});

/** PUT /collections/{id}/assets and /carousel-groups/{id}/items: the complete ordered ids (may be empty). */
export const orderedIdsSchema = z.object({
  ids: z
    .array(
      z
        .string({ error: 'error_uuid_invalid' })
        .refine(isUuid, { error: 'error_uuid_invalid' })
        .transform((v) => v.toLowerCase()),
      { error: 'error_ids_required' },
    )
    .max(COLLECTION_MAX_ASSETS, { error: 'error_too_many' })
    .refine((ids) => new Set(ids).size === ids.length, { error: 'error_ids_duplicate' }),
});
