import { defineAccountResource } from './define.js';

/** Custom CSS is at most 100 KB and only ever served as a stylesheet of the public page. */
export const CUSTOM_CSS_MAX = 100 * 1024;

/** How an event's public pages look, and its confirmation e-mail (account-console.md: form-styles). */
export const formStyles = defineAccountResource({
  name: 'form-styles',
  table: 'form_styles',
  prefix: 'st',
  group: 'account_form_styles',
  fields: {
    st_title: { kind: 'text', required: true, list: true, sort: true },
    st_eventid: { kind: 'reference', reference: 'events', list: true, filter: true },
    st_form_logo_assetid: { kind: 'asset', reference: 'assets', assetKinds: ['image'] },
    st_form_title: { kind: 'text' },
    st_form_description: { kind: 'longtext', max: 10_000 },
    st_thanks_logo_assetid: { kind: 'asset', reference: 'assets', assetKinds: ['image'] },
    st_thanks_title: { kind: 'text' },
    st_thanks_description: { kind: 'longtext', max: 10_000 },
    st_external_url_title: { kind: 'text' },
    st_external_url: { kind: 'url' },
    st_custom_css: { kind: 'longtext', max: CUSTOM_CSS_MAX },
    st_font_1: { kind: 'asset', reference: 'assets', assetKinds: ['font'] },
    st_font_2: { kind: 'asset', reference: 'assets', assetKinds: ['font'] },
    st_font_3: { kind: 'asset', reference: 'assets', assetKinds: ['font'] },
    st_mail_subject: { kind: 'text' },
    st_mail_html: { kind: 'longtext' },
  },
  search: ['st_title'],
});
