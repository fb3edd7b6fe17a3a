/** Range filters accept a date or a date-time; a bare date means the start or the end of that UTC day. */
export function dayStart(v: string | undefined): string | undefined {
  if (!v) return undefined;
  return v.length === 10 ? `${v}T00:00:00.000Z` : new Date(v).toISOString();
}

export function dayEnd(v: string | undefined): string | undefined {
  if (!v) return undefined;
  return v.length === 10 ? `${v}T23:59:59.999Z` : new Date(v).toISOString();
}
