import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useLocaleState, useTranslate } from 'react-admin';
import { useTheme } from '@mui/material/styles';
import type { FormElementSpec } from '../../../resources/answers';
import { rendererTexts } from '../renderer';
import { accountPath, accountUrl } from '../providers/accountPath';
import { api } from '../providers/http';

type Row = Record<string, unknown>;
interface FormGraph {
  form: Row;
  elements: FormElementSpec[];
}
export interface EventGraph {
  event: Row;
  forms: FormGraph[];
  registration?: FormGraph;
}

/**
 * The elements a lead of the event answers: a registration's from the registration form, anything else's from the
 * event's forms in order (one data name once), then the rest of the other kind so no stored answer goes unseen.
 */
export function leadElements(graph: EventGraph | undefined, source: unknown): FormElementSpec[] {
  if (!graph) return [];
  const capture = graph.forms.flatMap((f) => f.elements);
  const registration = graph.registration?.elements ?? [];
  const ordered = source === 'registration' ? [...registration, ...capture] : [...capture, ...registration];
  const seen = new Set<string>();
  return ordered.filter((el) => !seen.has(el.fe_name) && seen.add(el.fe_name));
}

/** The same elements as leadElements, by form in that order (a form left without elements is left out), with its title. */
export function leadFormGroups(graph: EventGraph | undefined, source: unknown): { id: string; title: string; elements: FormElementSpec[] }[] {
  if (!graph) return [];
  const forms = source === 'registration' && graph.registration ? [graph.registration, ...graph.forms] : [...graph.forms, ...(graph.registration ? [graph.registration] : [])];
  const seen = new Set<string>();
  return forms
    .map((f) => ({ id: String(f.form.f_id), title: String(f.form.f_title ?? ''), elements: f.elements.filter((el) => !seen.has(el.fe_name) && seen.add(el.fe_name)) }))
    .filter((g) => g.elements.length > 0);
}

/** GET /events/{id}/graph, cached per event while the console is open. */
export function useEventGraph(accountId: string, eventId: unknown) {
  const id = typeof eventId === 'string' ? eventId : '';
  return useQuery<EventGraph>({
    queryKey: ['event-graph', accountId, id],
    queryFn: ({ signal }) => api<EventGraph>(accountPath(accountId, 'events', id, 'graph'), { signal }),
    enabled: !!id,
    staleTime: 60_000,
  });
}

/** The renderer's words, locale and colours as the console shows them. */
export function useRendererSettings() {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const theme = useTheme();
  const texts = useMemo(() => rendererTexts(translate), [translate]);
  return { texts, locale: locale === 'nl' ? 'nl-NL' : 'en-GB', colorScheme: theme.palette.mode === 'dark' ? ('dark' as const) : ('light' as const) };
}

/** A card photo's address (served with the session; account_leads read). */
export const leadFileUrl = (accountId: string, fileId: string) => accountUrl(accountId, 'lead-files', fileId);
