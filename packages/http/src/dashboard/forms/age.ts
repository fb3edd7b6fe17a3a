/** How long something has waited, in words: "3 days", "5 hours", "under an hour". */
export function age(nowMs: number, iso: string): string {
  const hours = Math.floor((nowMs - Date.parse(iso)) / 3_600_000);
  if (hours < 1) return 'under an hour';
  if (hours < 48) return `${hours} hour${hours === 1 ? '' : 's'}`;
  return `${Math.floor(hours / 24)} days`;
}
