import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import Koa from 'koa';
import { describe, expect, it } from 'vitest';
import { sendJson } from './route-answers.js';

/** A Koa context of a GET with no socket behind it. */
function context() {
  const req = new IncomingMessage(new Socket());
  return new Koa().createContext(req, new ServerResponse(req));
}

describe('sendJson', () => {
  it('holds a long answer (a page of a list) as bytes: the same bytes and length JSON.stringify gives', () => {
    const page = { data: Array.from({ length: 500 }, (_, i) => ({ id: `lrn_${i}`, name: 'Zoë Ndlovu', n: i })) };
    const ctx = context();
    sendJson(ctx, page);
    const text = JSON.stringify(page);
    expect(Buffer.isBuffer(ctx.body)).toBe(true);
    expect((ctx.body as Buffer).equals(Buffer.from(text))).toBe(true);
    expect(ctx.length).toBe(Buffer.byteLength(text));
    expect(ctx.response.get('Content-Type')).toBe('application/json; charset=utf-8');
  });

  it('keeps a short answer as text', () => {
    const ctx = context();
    sendJson(ctx, { id: 'lrn_1' });
    expect(ctx.body).toBe('{"id":"lrn_1"}');
    expect(ctx.response.get('Content-Type')).toBe('application/json; charset=utf-8');
  });
});
