/** A signed URL made absolute with the request's origin when no public URL is configured. */
export const absolute =
  <T extends { url?: string; uploadUrl?: string }>(origin: string) =>
  (g: T): T => ({
    ...g,
    ...(g.url?.startsWith('/') ? { url: origin + g.url } : {}),
    ...(g.uploadUrl?.startsWith('/') ? { uploadUrl: origin + g.uploadUrl } : {}),
  });
