import { multipart } from '../evidence/evidence-http-fixture.js';
import type { WebClient } from '../testing/dashboard-client.js';

/** Posts a multipart form (text fields, then the file) with the client's cookies, as a browser's form would. */
export async function postFile(
  web: WebClient,
  path: string,
  fields: Record<string, string>,
  file: { name: string; data: Buffer },
): Promise<{ status: number; location: string | null; text: string }> {
  const { body, type } = multipart(fields, file);
  const res = await fetch(web.base + path, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': type, cookie: [...web.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    body,
  });
  return { status: res.status, location: res.headers.get('location'), text: await res.text() };
}
