import type { z } from 'zod';

/**
 * A small adapter from the shared zod schemas (resources/) to forms. Issue messages are message keys
 * (resources/messages.ts); they are translated where they are shown.
 */

/** Every field's message keys, in the order zod reported them. */
export function issuesByField(schema: z.ZodTypeAny, values: unknown): Record<string, string[]> {
  const result = schema.safeParse(values);
  const out: Record<string, string[]> = {};
  if (result.success) return out;
  for (const issue of result.error.issues) {
    const field = issue.path.length ? issue.path.map(String).join('.') : '_';
    // zod's own texts (e.g. a wrong type) are not message keys: show the generic one, like the API does.
    (out[field] ??= []).push(issue.message.startsWith('error_') ? issue.message : 'error_invalid_value');
  }
  return out;
}

/**
 * Spec 5: the form shows the first error of the first failing field, and only for fields the user has touched.
 * `order` is the fields' order on screen.
 */
export function firstVisibleError(
  errors: Record<string, string[]>,
  order: readonly string[],
  touched: Partial<Record<string, boolean>>,
): { field: string; message: string } | undefined {
  for (const field of order) {
    if (touched[field] && errors[field]?.length) return { field, message: errors[field][0] };
  }
  return undefined;
}

export interface ValidationMessage {
  message: string;
  args: Record<string, unknown>;
}

/**
 * A react-admin form `validate` function from a schema: {field: {message: key, args}} with the first error of each
 * field; react-admin translates the key with the args (e.g. {min} for error_password_too_short).
 */
export function zodValidate(schema: z.ZodTypeAny, args: Record<string, unknown> = {}) {
  return (values: Record<string, unknown>): Record<string, ValidationMessage> => {
    const errors: Record<string, ValidationMessage> = {};
    for (const [field, messages] of Object.entries(issuesByField(schema, values))) {
      errors[field] = { message: messages[0], args };
    }
    return errors;
  };
}
