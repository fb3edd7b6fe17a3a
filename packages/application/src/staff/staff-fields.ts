import { collect, type ErrorDetail } from '@fundi/domain';
import type { OfferedHooks } from '../common/hooks.js';

/**
 * How the API describes a field: the HTTP package adds the members (its schemas in `UserCreate`, `UserUpdate` and
 * `User`) by declaration merging, in packages/http/src/users/user-fields.ts, so this package names no schema library.
 */
// biome-ignore lint/suspicious/noEmptyInterface: the HTTP package adds its schemas by declaration merging.
export interface StaffFieldSchemas {}

/**
 * The rules of a field another capability adds to a staff user (docs/architecture.md, "A capability's anatomy"),
 * over values `V` it keeps in its own repositories `R` (the service's unit of work hands out every capability's, as
 * to an erasure step). The staff directory names none of them: it reads each field from the body under `name`,
 * reports its errors with its own, writes it in the transaction of the user's create or update, and shows it.
 */
export interface StaffFieldRules<V = unknown, R extends object = object> {
  /** Its key in the API's bodies; its error details name `<name>` or `<name>.<key>`. */
  name: string;
  /** The value of a user who was given none. */
  initial(): V;
  /** A given value, read by its rules; a DomainError naming each offending key otherwise. */
  parse(v: unknown): V;
  /** A change applied to the current value (`patch` as read by `parse`). */
  merge(current: V, patch: V): V;
  /** What the API shows of it. */
  view(v: V): unknown;
  /** The values stored for the tenant's users among `userIds`, by user id (a user with none is left out). */
  read(repos: R, tenantId: string, userIds: readonly string[]): Promise<ReadonlyMap<string, V>>;
  /** Stores a user's value, in the transaction `tx` of the user's create or update. */
  write(tx: R, tenantId: string, userId: string, v: V, at: string): Promise<void>;
}

/** A field as the API and the use cases take it: its rules and its schemas. */
export interface StaffField<V = unknown, R extends object = object> extends StaffFieldRules<V, R> {
  schemas: StaffFieldSchemas;
}

/** An offer of the `staffFields` hook: makes the field once, from every capability's offers (which triggers there are). */
export type StaffFieldOffer = (hooks: OfferedHooks) => StaffField;

declare module '../common/hooks.js' {
  interface Hooks {
    /** A field a capability adds to a staff user (the notifications' `notificationPreferences`). */
    staffFields: StaffFieldOffer;
  }
}

/** The offered fields, in the capability list's order; none while no capability offers one. */
export function staffFieldsOf(hooks: OfferedHooks): readonly StaffField[] {
  const offers: readonly StaffFieldOffer[] | undefined = hooks.staffFields;
  return (offers ?? []).map((offer) => offer(hooks));
}

/** A user's value of each field, by field name. */
export type FieldValues = ReadonlyMap<string, unknown>;

/**
 * Each field's value for a new user: the one `input` gives, read by the field's rules, or its initial value (which
 * is not stored).
 */
export function givenValues(
  fields: readonly StaffField[],
  input: Readonly<Record<string, unknown>>,
  errors: ErrorDetail[],
): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const f of fields) {
    const v = input[f.name];
    out.set(f.name, v == null ? f.initial() : collect(errors, () => f.parse(v)));
  }
  return out;
}

/** The values after a patch: each field the patch names merged into its current value. */
export function patchedValues(
  fields: readonly StaffField[],
  current: FieldValues,
  patch: Readonly<Record<string, unknown>>,
  errors: ErrorDetail[],
): Map<string, unknown> {
  const out = new Map(current);
  for (const f of fields) {
    if (patch[f.name] === undefined) continue;
    const p = collect(errors, () => f.parse(patch[f.name]));
    if (p !== undefined) out.set(f.name, f.merge(current.get(f.name), p));
  }
  return out;
}

/** Every field's values of the tenant's users `userIds`, by user id (the initial value where none is stored). */
export async function storedValues(
  fields: readonly StaffField[],
  repos: object,
  tenantId: string,
  userIds: readonly string[],
): Promise<Map<string, FieldValues>> {
  const read = await Promise.all(fields.map((f) => f.read(repos, tenantId, userIds)));
  return new Map(
    userIds.map((id) => [
      id,
      new Map(fields.map((f, i) => [f.name, read[i]!.has(id) ? read[i]!.get(id) : f.initial()])),
    ]),
  );
}

/** Writes a user's value of each of `fields` (those given or changed), in the transaction of their create or update. */
export async function writeValues(
  fields: readonly StaffField[],
  tx: object,
  tenantId: string,
  userId: string,
  values: FieldValues,
  at: string,
): Promise<void> {
  for (const f of fields) await f.write(tx, tenantId, userId, values.get(f.name), at);
}
