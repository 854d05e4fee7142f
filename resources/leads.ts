import { staffAndMembers } from './roles.js';
import { defineAccountResource } from './define.js';

export const TRANSCRIPTION_STATUSES = ['none', 'pending', 'postponed', 'done'] as const;
export const LEAD_SOURCES = ['registration', 'scan', 'card', 'manual', 'download', 'meeting'] as const;
/** Qualification: the best rating, the most tags, the longest notes. */
export const LEAD_RATING_MAX = 5;
export const LEAD_TAGS_MAX = 20;
export const LEAD_NOTES_MAX = 10_000;

/**
 * A lead (account-console.md: leads): one person met at an event, with the answers to the event's forms keyed by
 * element data name. `ld_client_id` is chosen by the capturing device: a second create with the same one answers the
 * first lead (200), so an offline queue retries safely. `ld_captured_by` is who captured it; `ld_ownerid` who it
 * belongs to now (a handoff changes it). The list also filters by `captured_from`/`captured_to` (dates or times).
 * The list's bulk update may change the owner, the validity, the rating and the tags (POST …/leads/bulk, each lead
 * checked like a single update: the owner must be a member).
 *
 * Qualification (platform-and-flows.md section 4): `ld_rating` 0–5 (unrated: null; filter.ld_rating_min/_max),
 * `ld_tags` (identifiers, at most 20; filter.ld_tags: leads with any of them), `ld_notes`, and `ld_memo_fileid`, a voice
 * memo recorded in the capture app and uploaded like a card photo (PUT /lead-files/{id} with an audio type).
 */
export const leads = defineAccountResource({
  name: 'leads',
  table: 'leads',
  prefix: 'ld',
  group: 'account_leads',
  history: true,
  trash: true,
  grants: staffAndMembers(15, 15),
  icon: 'contact_page',
  fields: {
    ld_eventid: { kind: 'reference', reference: 'events', trashWith: true, required: true, createOnly: true, list: true, filter: true, sort: true },
    ld_email: { kind: 'email', list: true, sort: true },
    ld_first_name: { kind: 'text', max: 100, list: true, sort: true },
    ld_last_name: { kind: 'text', max: 100, list: true, sort: true },
    ld_ownerid: { kind: 'reference', reference: 'members', referenceKey: 'au_userid', list: true, filter: true, sort: true, bulk: true },
    ld_captured_by: { kind: 'reference', reference: 'members', referenceKey: 'au_userid', readOnly: true },
    ld_answers: { kind: 'json', default: {}, formHidden: true },
    ld_front_fileid: { kind: 'reference', reference: 'lead-files', formHidden: true },
    ld_back_fileid: { kind: 'reference', reference: 'lead-files', formHidden: true },
    ld_is_valid: { kind: 'boolean', default: true, list: true, filter: true, sort: true, bulk: true },
    ld_transcription_status: { kind: 'enum', options: TRANSCRIPTION_STATUSES, default: 'none', list: true, filter: true, sort: true },
    ld_source: { kind: 'enum', options: LEAD_SOURCES, default: 'manual', createOnly: true, list: true, filter: true, sort: true },
    ld_badge_code: { kind: 'text', max: 500, createOnly: true },
    ld_consent_news: { kind: 'boolean', default: false },
    ld_consent_text: { kind: 'longtext', max: 10_000, createOnly: true, formHidden: true },
    ld_captured_at: { kind: 'datetime', filled: 'now', createOnly: true, list: true, sort: true, range: { from: 'captured_from', to: 'captured_to' } },
    ld_client_id: { kind: 'text', max: 100, createOnly: true, formHidden: true },
    ld_rating: { kind: 'number', integer: true, min: 0, max: LEAD_RATING_MAX, list: true, sort: true, bulk: true, range: { from: 'ld_rating_min', to: 'ld_rating_max' } },
    ld_tags: { kind: 'tags', max: LEAD_TAGS_MAX, default: [], list: true, filter: true, bulk: true },
    ld_notes: { kind: 'longtext', max: LEAD_NOTES_MAX },
    ld_memo_fileid: { kind: 'reference', reference: 'lead-files', formHidden: true },
  },
  search: ['ld_email', 'ld_first_name', 'ld_last_name'],
  defaultSort: { field: 'ld_captured_at', order: 'DESC' },
  // A million leads cannot be counted on every page: exact up to 10,000, estimated beyond (X-Total-Estimated).
  exactTotalUpTo: 10_000,
  // Ties of any sort by capture time: the (account, column, ld_captured_at) indexes then serve every sort.
  tieBreak: 'ld_captured_at',
  codes: ['lead_incomplete'],
  represent(r) {
    const name = [r.ld_first_name, r.ld_last_name].filter((v) => typeof v === 'string' && v.trim()).join(' ');
    const email = typeof r.ld_email === 'string' ? r.ld_email : '';
    return name && email ? `${name} · ${email}` : name || email;
  },
  labels: {
    en: {
      name_one: 'Lead',
      name_other: 'Leads',
      fields: {
        ld_eventid: 'Event',
        ld_email: 'E-mail',
        ld_first_name: 'First name',
        ld_last_name: 'Last name',
        ld_ownerid: 'Owner',
        ld_captured_by: 'Captured by',
        ld_answers: 'Answers',
        ld_front_fileid: 'Card front',
        ld_back_fileid: 'Card back',
        ld_is_valid: 'Valid',
        ld_transcription_status: 'Transcription',
        ld_source: 'Source',
        ld_badge_code: 'Badge code',
        ld_consent_news: 'News opt-in',
        ld_consent_text: 'Consent text as shown',
        ld_captured_at: 'Captured',
        ld_client_id: 'Device reference',
        ld_rating: 'Rating',
        ld_tags: 'Tags',
        ld_notes: 'Notes',
        ld_memo_fileid: 'Voice memo',
      },
      options: {
        ld_transcription_status: { none: 'Not needed', pending: 'To transcribe', postponed: 'Postponed', done: 'Transcribed' },
        ld_source: {
          registration: 'Registration',
          scan: 'Badge scan',
          card: 'Business card',
          manual: 'Typed in',
          download: 'Download',
          meeting: 'Meeting request',
        },
      },
    },
    nl: {
      name_one: 'Lead',
      name_other: 'Leads',
      fields: {
        ld_eventid: 'Evenement',
        ld_email: 'E-mail',
        ld_first_name: 'Voornaam',
        ld_last_name: 'Achternaam',
        ld_ownerid: 'Eigenaar',
        ld_captured_by: 'Vastgelegd door',
        ld_answers: 'Antwoorden',
        ld_front_fileid: 'Voorkant kaartje',
        ld_back_fileid: 'Achterkant kaartje',
        ld_is_valid: 'Geldig',
        ld_transcription_status: 'Overtypen',
        ld_source: 'Bron',
        ld_badge_code: 'Badgecode',
        ld_consent_news: 'Nieuwsbrief',
        ld_consent_text: 'Toestemmingstekst zoals getoond',
        ld_captured_at: 'Vastgelegd',
        ld_client_id: 'Apparaatreferentie',
        ld_rating: 'Beoordeling',
        ld_tags: 'Labels',
        ld_notes: 'Notities',
        ld_memo_fileid: 'Spraakmemo',
      },
      options: {
        ld_transcription_status: { none: 'Niet nodig', pending: 'Over te typen', postponed: 'Uitgesteld', done: 'Overgetypt' },
        ld_source: {
          registration: 'Inschrijving',
          scan: 'Badgescan',
          card: 'Visitekaartje',
          manual: 'Ingetypt',
          download: 'Download',
          meeting: 'Afspraakverzoek',
        },
      },
    },
  },
});

/** Card photos: the types a device may upload (PUT /lead-files/{id}) and the largest size. */
export const LEAD_PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
/**
 * Voice memos: what MediaRecorder makes (Chromium and Firefox: WebM or Ogg with Opus; Safari: MP4 with AAC), at most
 * 2 minutes; 5 MB holds that at any bit rate a browser records speech with (Opus ~32-128 kbit/s: 0.5-2 MB).
 */
export const LEAD_MEMO_TYPES = ['audio/webm', 'audio/ogg', 'audio/mp4'] as const;
export const LEAD_MEMO_MAX_SECONDS = 120;
export const LEAD_MEMO_MAX_BYTES = 5 * 1024 * 1024;
export const LEAD_FILE_TYPES = [...LEAD_PHOTO_TYPES, ...LEAD_MEMO_TYPES] as const;
export const LEAD_FILE_MAX_BYTES = 10 * 1024 * 1024;

/**
 * A card photo or voice memo (lead_files), private to its account: not a console resource of its own (no list or
 * form), only PUT/GET /lead-files/{id}; declared so that reads are scoped like every account table and a lead's
 * ld_front_fileid/ld_back_fileid/ld_memo_fileid are checked like any reference.
 */
export const leadFiles = defineAccountResource({
  name: 'lead-files',
  table: 'lead_files',
  prefix: 'lf',
  group: 'account_leads',
  fields: {
    lf_type: { kind: 'enum', options: LEAD_FILE_TYPES, required: true, readOnly: true },
    lf_size: { kind: 'number', integer: true, min: 1, max: LEAD_FILE_MAX_BYTES, readOnly: true },
  },
  operations: { get: 'read', create: 'create' },
});
