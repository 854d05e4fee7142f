import { ApiError } from '../errors.js';
import { normalizeAnswers, validateAnswers, type Answers, type FormElementSpec } from '../../resources/answers.js';
import type { FormGraph } from '../models/graphs.js';

/**
 * The rules every door shares when answers become a lead (registration page, capture app, console): the answers are
 * checked against the forms' elements (400 lead_incomplete with the fields), stored normalised, and the data names
 * email, first_name and last_name fill the lead's own fields (account-console.md: form-elements, leads).
 */
export const OWN_FIELDS = { email: 'ld_email', first_name: 'ld_first_name', last_name: 'ld_last_name' } as const;

export type LeadOwnFields = { ld_email?: string | null; ld_first_name?: string | null; ld_last_name?: string | null };

/** The elements of forms in order (one data name once: the first form that has it wins). */
export function elementsOf(graphs: readonly FormGraph[]): FormElementSpec[] {
  const seen = new Set<string>();
  const out: FormElementSpec[] = [];
  for (const g of graphs)
    for (const el of g.elements as unknown as FormElementSpec[]) {
      if (seen.has(el.fe_name)) continue;
      seen.add(el.fe_name);
      out.push(el);
    }
  return out;
}

/**
 * Checks answers against elements and gives what to store: the normalised answers and the lead's own fields. Missing
 * or wrong answers: 400 lead_incomplete ("Please complete all mandatory fields") with { <data name>: message key }.
 */
export function leadFromAnswers(elements: readonly FormElementSpec[], answers: unknown): { answers: Answers } & LeadOwnFields {
  const given = answers !== null && typeof answers === 'object' && !Array.isArray(answers) ? (answers as Record<string, unknown>) : {};
  if (answers !== undefined && answers !== null && given !== answers)
    throw new ApiError(400, 'lead_incomplete', 'Please complete all mandatory fields', { answers: 'error_invalid_value' });
  const errors = validateAnswers(elements, given);
  if (Object.keys(errors).length) throw new ApiError(400, 'lead_incomplete', 'Please complete all mandatory fields', errors);
  const stored = normalizeAnswers(elements, given);
  const own: LeadOwnFields = {};
  for (const [name, column] of Object.entries(OWN_FIELDS)) {
    const v = stored[name];
    if (typeof v === 'string') own[column] = column === 'ld_email' ? v.toLowerCase() || null : v || null;
  }
  return { answers: stored, ...own };
}
