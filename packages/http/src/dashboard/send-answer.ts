import type { Context } from 'koa';
import type { Answer } from './dashboard-deps.js';
import { Html } from './html.js';

/** Writes a page's answer: an HTML page, a file to download, or a redirect after a form (303). */
export function send(ctx: Context, a: Answer): void {
  if (a instanceof Html) {
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = a.value;
  } else if ('file' in a) {
    ctx.type = a.file.contentType;
    ctx.set('Content-Disposition', `attachment; filename="${a.file.filename.replace(/[^\w.-]/g, '_')}"`);
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = a.file.open();
  } else {
    ctx.status = 303;
    ctx.redirect(a.redirect);
  }
}
