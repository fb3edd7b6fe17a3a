/**
 * How a list is paged. Form A pages by keyset (`after` = the last id seen, ids sort by creation time);
 * Form B by offset. Repositories honour both and always report the filtered total.
 */
export type PageRequest =
  | { kind: 'cursor'; after: string | null; limit: number }
  | { kind: 'offset'; offset: number; limit: number };

export interface Page<T> {
  items: T[];
  total: number;
  hasMore: boolean;
}
