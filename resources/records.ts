import type { FieldMeta, Fields, ResourceDeclaration } from './types.js';

/**
 * A record's type from its declaration: each field's value by kind (an enum's options as a union), null where the
 * field may be empty, plus the key, account and timestamp columns of its prefix and react-admin's `id`. Screens and
 * hooks name `RecordOf<typeof events>` instead of casting Record<string, unknown>.
 */
type ValueOfKind<M extends FieldMeta> = M['kind'] extends 'number'
  ? number
  : M['kind'] extends 'boolean'
    ? boolean
    : M['kind'] extends 'json'
      ? Record<string, unknown>
      : M['kind'] extends 'enum'
        ? M['options'] extends readonly (infer O)[]
          ? O
          : string
        : string;

/** A field is never empty when it is required or has a default (its column is NOT NULL). */
type FieldValue<M extends FieldMeta> = M extends { required: true } ? ValueOfKind<M> : M extends { default: unknown } ? ValueOfKind<M> : ValueOfKind<M> | null;

/** An account resource's declaration that keeps its fields' and prefix's literal types. */
export type AccountResource<F extends Fields = Fields, P extends string = string> = ResourceDeclaration & { fields: F; prefix: P };

export type RecordOf<D> =
  D extends AccountResource<infer F, infer P>
    ? { id: string } & { -readonly [K in keyof F]: FieldValue<F[K]> } & { [K in `${P}_id` | `${P}_accountid` | `${P}_created_at` | `${P}_updated_at`]: string }
    : Record<string, unknown> & { id: string };
