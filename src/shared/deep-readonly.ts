/**
 * A type with every property and array readonly, all the way down. The protocol's types are
 * inferred from its zod schemas (which infer mutable types) and made readonly with this, so a
 * schema is the one place a shape is written.
 */
export type DeepReadonly<T> = T extends (infer Item)[] ? readonly DeepReadonly<Item>[] : T extends object ? { readonly [K in keyof T]: DeepReadonly<T[K]> } : T;
