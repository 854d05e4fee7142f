import { expect } from 'vitest';
import { uid, type TestClient } from './app.js';
import { accountPath } from './console.js';

type Row = Record<string, unknown>;

/** A record made through the API (201 expected). */
export async function made(client: TestClient, accountId: string, resource: string, body: Row): Promise<Row> {
  const res = await client.post(accountPath(accountId, resource), body);
  expect(res.status, `${resource}: ${JSON.stringify(res.body)}`).toBe(201);
  return res.body;
}

export interface LeadEvent {
  event: Row;
  form: Row;
  list: Row;
  /** The elements by data name. */
  elements: Record<string, Row>;
}

/**
 * An event with one booth form, made through the API as a lead's answers meet it: email (text, required), first_name
 * (text, required), last_name (text), company (text, external name "Company name"), interests (chips over a list:
 * Software/software, Hardware/hardware), days (date selector), newsletter (toggle), budget (slider 0..50 by 5).
 */
export async function makeLeadEvent(client: TestClient, accountId: string, event: Row = {}): Promise<LeadEvent> {
  const list = await made(client, accountId, 'lists', { l_title: 'Interests', l_name: uid() });
  for (const [title, value] of [
    ['Software', 'software'],
    ['Hardware', 'hardware'],
  ])
    await made(client, accountId, 'list-items', { li_listid: list.id, li_title: title, li_value: value });
  const form = await made(client, accountId, 'forms', { f_title: 'Booth', f_name: uid() });
  const specs: Row[] = [
    { fe_name: 'email', fe_title: 'E-mail', fe_type: 'text', fe_is_required: true },
    { fe_name: 'first_name', fe_title: 'First name', fe_type: 'text', fe_is_required: true },
    { fe_name: 'last_name', fe_title: 'Last name', fe_type: 'text' },
    { fe_name: 'company', fe_title: 'Company', fe_type: 'text', fe_external_name: 'Company name' },
    { fe_name: 'interests', fe_title: 'Interests', fe_type: 'choice_chips_multiple', fe_listid: list.id },
    { fe_name: 'days', fe_title: 'Days', fe_type: 'date_selector_days', fe_options: { days: ['2026-11-23', '2026-11-24'], disabled: [] } },
    { fe_name: 'newsletter', fe_title: 'Newsletter', fe_type: 'toggle' },
    { fe_name: 'budget', fe_title: 'Budget', fe_type: 'slider', fe_options: { min: 0, max: 50, step: 5 } },
  ];
  const elements: Record<string, Row> = {};
  for (const s of specs) elements[String(s.fe_name)] = await made(client, accountId, 'form-elements', { fe_formid: form.id, ...s });
  const ev = await made(client, accountId, 'events', { ev_title: 'Expo', ev_name: uid(), ev_access_type: 'open', ...event });
  await made(client, accountId, 'event-forms', { ef_eventid: ev.id, ef_formid: form.id });
  return { event: ev, form, list, elements };
}

/** Complete answers for makeLeadEvent's form. */
export const answersFor = (overrides: Row = {}): Row => ({
  email: `${uid()}@Example.com`,
  first_name: 'Ann',
  last_name: 'Smith',
  company: 'Acme',
  interests: ['software'],
  newsletter: true,
  budget: 10,
  ...overrides,
});

// A tiny real JPEG (SOI, JFIF APP0, EOI) and PNG: enough for the type check on their first bytes.
export const JPEG = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
  Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'latin1'),
  Buffer.alloc(64, 7),
  Buffer.from([0xff, 0xd9]),
]);
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

/** PUT a card photo's bytes as a device does. */
export function putLeadFile(client: TestClient, accountId: string, id: string, body: Buffer, type = 'image/jpeg') {
  return client.raw('put', `/api/1/accounts/${accountId}/lead-files/${id}`).set('Content-Type', type).send(body);
}
