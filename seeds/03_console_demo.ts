import type { Knex } from 'knex';
import { FORM_ELEMENT_TYPES } from '../resources/formElements.js';
import { valueFromTitle } from '../resources/listItems.js';
import { FAKE_BADGE_SECRET } from '../scripts/fake-badge-provider.js';

/**
 * Console demo data (npm run db:seed:demo, after 02_demo): in the first demo account, two events, a registration form
 * with every element type, a list tree and a flat list long enough for the select search, a booth form, a form
 * style, an invite mail template and an integration to the fake badge provider (npm run fake-badge-provider).
 * Safe to run twice.
 */
export const DEMO_ACCOUNT = 'Acme Events';
/** npm run fake-badge-provider (HTTPS on localhost:4555; run the app with INTEGRATIONS_ALLOW_PRIVATE=1 and its CA file). */
export const FAKE_PROVIDER_URL = process.env.FAKE_BADGE_PROVIDER_URL || 'https://localhost:4555/scan';

const COUNTRIES: [string, string[]][] = [
  ['Europe', ['Belgium', 'France', 'Germany', 'Netherlands', 'Spain']],
  ['Americas', ['Brazil', 'Canada', 'United States']],
  ['Asia', ['India', 'Japan', 'Singapore']],
];
const INTERESTS = [
  'Badges',
  'Booth design',
  'Catering',
  'Data privacy',
  'Digital signage',
  'Exhibitors',
  'Floor plans',
  'Hybrid events',
  'Lead scoring',
  'Lighting',
  'Logistics',
  'Marketing',
  'Networking',
  'Registration',
  'Security',
  'Sponsorship',
  'Sustainability',
  'Ticketing',
  'Translation',
  'Venues',
];

const day = (offset: number) => new Date(Date.now() + offset * 86400_000).toISOString().slice(0, 10);

export async function seed(knex: Knex): Promise<void> {
  const account = await knex('accounts').where('a_name', DEMO_ACCOUNT).first('a_id');
  if (!account) return; // 02_demo did not run
  const a = account.a_id as string;
  if (await knex('events').where({ ev_accountid: a, ev_name: 'spring-expo' }).first('ev_id')) return;
  await knex.transaction(async (trx) => {
    const [countries] = await trx('lists').insert({ l_accountid: a, l_title: 'Countries', l_name: 'countries' }).returning('l_id');
    let order = 0;
    for (const [region, names] of COUNTRIES) {
      const [parent] = await trx('list_items')
        .insert({ li_accountid: a, li_listid: countries.l_id, li_title: region, li_value: valueFromTitle(region), li_order: order++ })
        .returning('li_id');
      await trx('list_items').insert(
        names.map((n, i) => ({ li_accountid: a, li_listid: countries.l_id, li_parentid: parent.li_id, li_title: n, li_value: valueFromTitle(n), li_order: i })),
      );
    }
    const [interests] = await trx('lists').insert({ l_accountid: a, l_title: 'Interests', l_name: 'interests' }).returning('l_id');
    await trx('list_items').insert(INTERESTS.map((n, i) => ({ li_accountid: a, li_listid: interests.l_id, li_title: n, li_value: valueFromTitle(n), li_order: i })));

    const [registration] = await trx('forms').insert({ f_accountid: a, f_title: 'Registration', f_name: 'registration' }).returning('f_id');
    const listFor: Record<string, string> = {
      choice_chips_single: interests.l_id,
      choice_chips_multiple: interests.l_id,
      checkbox_tree: countries.l_id,
      radio_tree: countries.l_id,
      selectbox: interests.l_id,
      picker: countries.l_id,
    };
    const options: Record<string, unknown> = {
      slider: { min: 0, max: 10, step: 1 },
      date_selector_days: { days: [day(30), day(31), day(32)], disabled: [day(31)] },
      textarea: { max_length: 1000 },
      toggle: { default: true },
    };
    const elements = [
      { fe_title: 'E-mail', fe_name: 'email', fe_type: 'text', fe_is_required: true },
      { fe_title: 'First name', fe_name: 'first_name', fe_type: 'text', fe_is_required: true },
      { fe_title: 'Last name', fe_name: 'last_name', fe_type: 'text', fe_is_required: true },
      ...FORM_ELEMENT_TYPES.filter((type) => type !== 'text').map((type) => ({
        fe_title: type.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase()),
        fe_name: type,
        fe_type: type,
      })),
    ].map((e, i) => ({
      fe_accountid: a,
      fe_formid: registration.f_id,
      fe_order: i,
      fe_is_required: false,
      fe_listid: listFor[e.fe_type] ?? null,
      fe_options: options[e.fe_type] ?? null,
      ...e,
    }));
    await trx('form_elements').insert(elements);

    const [booth] = await trx('forms').insert({ f_accountid: a, f_title: 'Booth conversation', f_name: 'booth' }).returning('f_id');
    await trx('form_elements').insert([
      { fe_accountid: a, fe_formid: booth.f_id, fe_order: 0, fe_title: 'Interests', fe_name: 'interests', fe_type: 'choice_chips_multiple', fe_listid: interests.l_id },
      { fe_accountid: a, fe_formid: booth.f_id, fe_order: 1, fe_title: 'Follow up', fe_name: 'follow_up', fe_type: 'toggle' },
      { fe_accountid: a, fe_formid: booth.f_id, fe_order: 2, fe_title: 'Notes', fe_name: 'notes', fe_type: 'textarea' },
    ]);

    const owner = await trx('account_users').where({ au_accountid: a }).orderBy('au_created_at').first('au_userid');
    const [spring] = await trx('events')
      .insert({
        ev_accountid: a,
        ev_title: 'Spring Expo',
        ev_name: 'spring-expo',
        ev_access_type: 'open',
        ev_start_date: day(-1),
        ev_end_date: day(2),
        ev_ownerid: owner?.au_userid ?? null,
        ev_registration_formid: registration.f_id,
        // rich text as the API stores it (api/crud/richtext.ts): the allow-list only, links with rel and a new tab
        ev_description:
          '<p>Three days of <strong>product demos</strong>, talks and coffee in hall 5.</p><ul><li>Doors open at 9:00</li><li>Free for trade visitors</li></ul>' +
          '<p><a href="https://example.com/spring-expo" rel="noopener noreferrer" target="_blank">Floor plan and programme</a></p>',
      })
      .returning('ev_id');
    const [summit] = await trx('events')
      .insert({
        ev_accountid: a,
        ev_title: 'Partner Summit',
        ev_name: 'partner-summit',
        ev_access_type: 'restricted',
        ev_access_code: 'PARTNER',
        ev_start_date: day(30),
        ev_end_date: day(32),
        ev_registration_formid: registration.f_id,
      })
      .returning('ev_id');
    await trx('event_forms').insert([
      { ef_accountid: a, ef_eventid: spring.ev_id, ef_formid: registration.f_id, ef_order: 0 },
      { ef_accountid: a, ef_eventid: spring.ev_id, ef_formid: booth.f_id, ef_order: 1 },
      { ef_accountid: a, ef_eventid: summit.ev_id, ef_formid: booth.f_id, ef_order: 0 },
    ]);
    await trx('form_styles').insert({
      st_accountid: a,
      st_title: 'Spring Expo style',
      st_eventid: spring.ev_id,
      st_form_title: 'Register for Spring Expo',
      st_form_description: '<p>Register once and your <strong>badge</strong> comes by e-mail.</p>',
      st_thanks_title: 'See you at Spring Expo!',
      st_thanks_description: '<p>Your registration is in. Questions? <a href="mailto:expo@example.com" rel="noopener noreferrer">Mail us</a>.</p>',
      st_external_url_title: 'Visit the expo site',
      st_external_url: 'https://example.com/spring-expo',
    });
    const [integration] = await trx('integrations')
      .insert({
        in_accountid: a,
        in_title: 'Fake badge provider',
        in_name: 'fake-badges',
        in_type: 'badge_scan',
        in_api_url: FAKE_PROVIDER_URL,
        in_key: null,
        in_secret: FAKE_BADGE_SECRET,
      })
      .returning('in_id');
    await trx('event_integrations').insert({ ei_accountid: a, ei_eventid: spring.ev_id, ei_integrationid: integration.in_id, ei_external_event_id: 'SPRING' });
    await trx('mail_templates').insert({
      mt_accountid: a,
      mt_name: 'invite',
      mt_subject: 'Join {{account_name}} on Leadstage',
      mt_html: '<p>Hello {{first_name}},</p><p>{{inviter_name}} invites you to {{account_name}}.</p><p><a href="{{link}}">Accept the invite</a></p>',
      mt_text: 'Hello {{first_name}},\n\n{{inviter_name}} invites you to {{account_name}}: {{link}}',
    });
  });
}
