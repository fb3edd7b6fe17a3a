/** A row as both drivers return it. */
export type Row = Record<string, string | number | boolean | null>;

export const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

/** `(?, ?, ...), (?, ...)` for a multi-row INSERT of `rows` rows of `width` columns. */
export function valuesList(rows: number, width: number): string {
  const one = `(${new Array(width).fill('?').join(', ')})`;
  return new Array(rows).fill(one).join(', ');
}

/** `?, ?, ?` for an IN list. */
export const marks = (n: number) => new Array(n).fill('?').join(', ');

/** Splits a batch so no statement exceeds the databases' bound-parameter limits. */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * A function that turns an array of values into an object keyed by `names`, made as one generated object literal:
 * every object it makes has the same shape, which V8 builds and JSON.stringify serialises fastest (rows read in
 * array mode, and rows sent as JSON, are made this way). `at`: where each name's value is in the array (by default
 * at the name's own place).
 */
export function objectMaker(
  names: readonly string[],
  at: readonly number[] = names.map((_, i) => i),
): (values: readonly unknown[]) => Record<string, unknown> {
  return new Function('r', `return { ${names.map((n, i) => `${JSON.stringify(n)}: r[${at[i]}]`).join(', ')} };`) as (
    values: readonly unknown[],
  ) => Record<string, unknown>;
}
