/**
 * Builders for the API's reply schemas (TypeBox: JSON Schema values whose TypeScript type is
 * derived with `Static`), so a schema and its type cannot drift. Two shapes matter to the
 * serializer (fast-json-stringify): enums are `{type: 'string', enum}` and nullables use a type
 * array (`['string', 'null']`), not `anyOf`, which it would resolve by validating every value.
 */
import { Type, type Static, type TSchema } from 'typebox';

export { Type, type Static, type TSchema };

/** One of the given strings. */
export const Str = <const V extends readonly string[]>(values: V, description?: string) =>
  Type.Unsafe<V[number]>({ type: 'string', enum: [...values], ...(description ? { description } : {}) });

/** `T | null`, as a type array where the schema has one type (see the module comment). */
export const Nullable = <T extends TSchema>(schema: T) => {
  const s = schema as Record<string, unknown>;
  if (typeof s.type === 'string') {
    const out: Record<string, unknown> = { ...s, type: [s.type, 'null'] };
    if (Array.isArray(s.enum)) out.enum = [...s.enum, null];
    return Type.Unsafe<Static<T> | null>(out);
  }
  return Type.Unsafe<Static<T> | null>({ anyOf: [s, { type: 'null' }] });
};

/** Shorthands for the common cases. */
export const Num = () => Type.Number();
export const Int = () => Type.Integer();
export const Text = () => Type.String();
export const NullNum = () => Nullable(Type.Number());
export const NullInt = () => Nullable(Type.Integer());
export const NullText = () => Nullable(Type.String());
/** Epoch milliseconds (UTC). */
export const Ms = (description?: string) => Type.Number(description ? { description } : {});
export const NullMs = (description?: string) => Nullable(Ms(description));
export const Strings = () => Type.Array(Type.String());

/** An object whose keys are data (tool names, counter names), every value of one schema. */
export const Dict = <T extends TSchema>(value: T) => Type.Record(Type.String(), value);

/** A number or a string (scan summaries mix counts and words). */
export const NumOrText = () => Type.Unsafe<number | string>({ type: ['number', 'string'] });

/** Type-level check that two types are the same (for vocabulary typed elsewhere, ../types.ts). */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const same = <T extends true>(_: T[]): void => {};
