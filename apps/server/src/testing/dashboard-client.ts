import { useCasesOf } from '@fundi/adapters';
import { inlineCode } from '@fundi/http';
import type { Container } from 'inversify';
import { staff } from '../capabilities/index.js';

export interface WebAnswer {
  status: number;
  headers: Headers;
  text: string;
  setCookies: string[];
}

/**
 * A cookie-keeping HTTP client for the dashboard's pages (no browser): what a form post really sends. A page holding
 * markup the dashboard's Content-Security-Policy refuses (`inlineCode`) fails the test that read it.
 */
export class WebClient {
  readonly cookies = new Map<string, string>();
  constructor(
    readonly base: string,
    readonly extraHeaders: Record<string, string> = {},
  ) {}

  private async send(method: string, path: string, body?: string): Promise<WebAnswer> {
    const res = await fetch(this.base + path, {
      method,
      redirect: 'manual',
      headers: {
        ...this.extraHeaders,
        cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
      },
      body,
    });
    const setCookies = res.headers.getSetCookie();
    for (const c of setCookies) {
      const [pair, ...attrs] = c.split(';');
      const [name, value] = [pair!.slice(0, pair!.indexOf('=')), pair!.slice(pair!.indexOf('=') + 1)];
      if (attrs.some((a) => a.trim() === 'Max-Age=0') || !value) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    // Every page a test reads keeps to the dashboard's Content-Security-Policy, as answers keep to the OpenAPI document.
    const inline = res.headers.get('content-type')?.startsWith('text/html') ? inlineCode(text) : [];
    if (inline.length)
      throw new Error(
        `${method} ${path} answered markup its Content-Security-Policy refuses:\n  ${inline.join('\n  ')}`,
      );
    return { status: res.status, headers: res.headers, text, setCookies };
  }

  get(path: string) {
    return this.send('GET', path);
  }

  post(path: string, fields: Record<string, string | string[]>) {
    const p = new URLSearchParams();
    for (const [k, v] of Object.entries(fields)) for (const x of Array.isArray(v) ? v : [v]) p.append(k, x);
    return this.send('POST', path, p.toString());
  }

  /** Posts a form of the page at `from` with that page's CSRF token. */
  async submit(from: string, action: string, fields: Record<string, string | string[]>) {
    const page = await this.get(from);
    return this.post(action, { _csrf: csrfOf(page.text), ...fields });
  }

  async signIn(tenant: string, email: string, password: string) {
    const form = await this.get(`/dashboard/sign-in?tenant=${tenant}`);
    return this.post('/dashboard/sign-in', { _csrf: csrfOf(form.text), tenant, email, password });
  }
}

export function csrfOf(html: string): string {
  const m = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!m) throw new Error('no CSRF field on the page');
  return m[1]!;
}

export const PASSWORD = 'correct horse battery staple';

/** A staff user of `slug` with the test password. */
export async function staffUser(c: Container, slug: string, role: string, email = `${role}@example.org`) {
  return useCasesOf(c, staff).createStaffUser.execute(slug, { email, name: `The ${role}`, role, password: PASSWORD });
}
