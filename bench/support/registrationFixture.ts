// An open event with a registration form like a real one (names, e-mail, company, a list of interests, a toggle) and
// a form style with its own mail subject; and the answers a visitor sends.
import type { Knex } from 'knex';

export const INTERESTS = ['badges', 'catering', 'lighting', 'security', 'venues'];

export interface RegistrationEvent {
  eventId: string;
  formId: string;
}

/** Makes the interests list, the form and its six elements, the open event that registers with it, and its style. */
export async function seedRegistrationEvent(db: Knex, a: string): Promise<RegistrationEvent> {
  const [list] = await db('lists').insert({ l_accountid: a, l_title: 'Interests', l_name: 'interests' }).returning('l_id');
  await db('list_items').insert(INTERESTS.map((v, i) => ({ li_accountid: a, li_listid: list.l_id, li_title: v, li_value: v, li_order: i })));
  const [form] = await db('forms').insert({ f_accountid: a, f_title: 'Registration', f_name: 'registration' }).returning('f_id');
  await db('form_elements').insert(
    [
      { fe_title: 'E-mail', fe_name: 'email', fe_type: 'text', fe_is_required: true },
      { fe_title: 'First name', fe_name: 'first_name', fe_type: 'text', fe_is_required: true },
      { fe_title: 'Last name', fe_name: 'last_name', fe_type: 'text', fe_is_required: true },
      { fe_title: 'Company', fe_name: 'company', fe_type: 'text' },
      { fe_title: 'Interests', fe_name: 'interests', fe_type: 'choice_chips_multiple', fe_listid: list.l_id },
      { fe_title: 'Newsletter', fe_name: 'newsletter', fe_type: 'toggle' },
    ].map((e, i) => ({ fe_accountid: a, fe_formid: form.f_id, fe_order: i, ...e })),
  );
  const [event] = await db('events')
    .insert({ ev_accountid: a, ev_title: 'Bench Expo', ev_name: 'bench-expo', ev_access_type: 'open', ev_registration_formid: form.f_id })
    .returning('ev_id');
  await db('form_styles').insert({ st_accountid: a, st_title: 'Bench', st_eventid: event.ev_id, st_form_title: 'Register', st_mail_subject: 'Welcome {{first_name}}' });
  return { eventId: event.ev_id, formId: form.f_id };
}

/** The answers of the form above for visitor n of run `runId` (a distinct e-mail for each). */
export const visitorAnswers = (n: number, runId: string) => ({
  email: `visitor${n}-${runId}@bench.example`,
  first_name: `First${n}`,
  last_name: `Last${n % 97}`,
  company: `Company ${n % 31}`,
  interests: [INTERESTS[n % 5], INTERESTS[(n + 2) % 5]],
  newsletter: n % 2 === 0,
});

/** A distinct client address for visitor n (sent as X-Forwarded-For to a server with TRUST_PROXY=1). */
export const visitorAddress = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
