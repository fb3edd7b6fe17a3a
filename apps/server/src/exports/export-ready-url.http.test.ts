import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachStorage, type TestReceiver } from '@fundi/adapters/testing';
import { FixedClock } from '@fundi/testing';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { FORMS } from '../testing/http-forms.js';
import { exportWorlds } from '../testing/export-worlds.js';

const PUBLIC = 'https://files.fundi.example:8443';

/**
 * `export.ready` reaches a webhook receiver with an absolute download URL (docs/api.md, "Exports"): under
 * `FUNDI_PUBLIC_URL` when set, else on the origin the export was requested at; either way it downloads the file.
 */
describeEachStorage(
  'export.ready download URLs',
  (_get, kind) => {
    for (const publicUrl of [undefined, PUBLIC]) {
      describe(publicUrl ? 'with a public URL' : 'without a public URL', () => {
        let s: TestServer;
        let rx: TestReceiver;
        const clock = new FixedClock(new Date('2026-06-01T08:00:00.000Z'));
        beforeAll(async () => {
          s = await startTestServer(kind, { clock, worker: {}, publicUrl });
          rx = await s.receiver();
        });
        afterAll(async () => {
          await s?.close();
          await rx?.close();
        });
        const { finished, world } = exportWorlds(() => s, `${kind}-url${publicUrl ? 'p' : ''}`);

        it.each(FORMS.map((f) => [f.name, f] as const))(
          '%s: the webhook URL is absolute and downloads the file',
          async (_n, form) => {
            const w = await world(form);
            const sub = await s.call('POST', `${w.prefix}/webhook-subscriptions`, w.key, {
              url: rx.url,
              events: ['export.ready', 'export.completed'],
            });
            expect(sub.status, JSON.stringify(sub.body)).toBe(201);
            const before = rx.ids().size;
            const q = await s.call('POST', `${w.prefix}/exports`, w.key, { type: 'enrolments' });
            expect(q.status).toBe(202);
            const done = await finished(w.prefix, w.key, q.body.id);
            expect(done.status).toBe('ready');
            await rx.waitFor(before + 2, 10_000);
            const payloads = rx.received
              .map((r) => JSON.parse(r.body) as { type: string; data: Record<string, string> })
              .filter((p) => p.data.exportId === q.body.id);
            expect(payloads.map((p) => p.type).sort()).toEqual(['export.completed', 'export.ready']);
            for (const { data } of payloads) {
              const url = new URL(data.downloadUrl!);
              expect(url.origin).toBe(publicUrl ?? s.url);
              expect(url.pathname).toMatch(/^\/api\/v1\/files\/exports\//);
              // The public URL names the proxy in front of this server: the same path is fetched from the server.
              const res = await fetch(`${s.url}${url.pathname}`);
              expect(res.status).toBe(200);
              const body = Buffer.from(await res.arrayBuffer());
              expect(body.length).toBe(done.size);
              expect(body.toString('utf8')).toContain(w.learners[0].id);
            }
            // The record's own download URL is absolute on the same base.
            const grant = await s.call('GET', `${w.prefix}/exports/${q.body.id}/download`, w.key);
            expect(new URL(grant.body.url).origin).toBe(publicUrl ?? s.url);
          },
        );
      });
    }
  },
  ['sqlite', 'postgres'],
);
