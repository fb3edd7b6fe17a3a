import type { SessionContext } from '@fundi/application/staff';
import { isDomainError } from '@fundi/domain';
import type { Context } from 'koa';
import type { DashboardDeps, PageRoutes } from '../dashboard/dashboard-deps.js';
import { html, when, type Html } from '../dashboard/html.js';
import { csrf, page } from '../dashboard/layout.js';
import { field, requireAdmin } from '../dashboard/web.js';
import { describe } from '../tenants/api-key-pages.js';

type Shown = { label: string; id: string; value: string; note: string };

const originOf = (ctx: Context) => `${ctx.protocol}://${ctx.host}`;

/** `hrField = learner.path` per line, the way the mapping is edited here. */
function mappingText(m: Record<string, string>): string {
  return Object.entries(m)
    .map(([k, v]) => `${k} = ${v}`)
    .join('\n');
}

function parseMapping(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line) continue;
    const at = line.indexOf('=');
    out[(at < 0 ? line : line.slice(0, at)).trim()] = at < 0 ? '' : line.slice(at + 1).trim();
  }
  return out;
}

/**
 * HR sync (docs/dashboard.md, "Pages"; administrators only, as in the API): the configuration with the inbound
 * address, an edit form (on/off, outbound URL, key header, field mapping), rotating the webhook key (shown once), the
 * inbound log and the outbound delivery log with replay.
 */
export function hrSyncPages(r: PageRoutes, d: DashboardDeps): void {
  const u = d.hrSync;

  const render = async (
    ctx: Context,
    s: SessionContext,
    o: { notice?: { text: string; error?: boolean }; shown?: Shown; mapping?: string } = {},
  ) => {
    requireAdmin(s);
    const c = await u.get.execute(s.actor, originOf(ctx));
    const events = await u.listEvents.execute(s.actor, { kind: 'offset', offset: 0, limit: 25 });
    const deliveries = c.outboundUrl
      ? await u.listDeliveries.execute(s.actor, { kind: 'offset', offset: 0, limit: 25 })
      : null;
    const shown: Html | null = o.shown
      ? html`<div class="card" role="status"><h2>${o.shown.label}</h2><p>${o.shown.note}</p>
<label for="${o.shown.id}">${o.shown.label}</label><input id="${o.shown.id}" class="secret" readonly value="${o.shown.value}">
<button type="button" data-copy="${o.shown.id}">Copy</button></div>`
      : null;
    return page({
      title: 'HR sync',
      current: '/dashboard/hr-sync',
      session: s,
      notice: o.notice,
      body: html`${shown}
<div class="table" tabindex="0"><table><tbody>
<tr><th scope="row">State</th><td>${c.enabled ? 'on' : 'off'}</td></tr>
<tr><th scope="row">Inbound address (HR posts here)</th><td><code>${c.inboundUrl}</code></td></tr>
<tr><th scope="row">Key header</th><td><code>${c.authentication.headerName}</code>${c.keyPrefix ? html` carrying the key <code>${c.keyPrefix}…</code>` : ' (no key yet: rotate one)'}</td></tr>
<tr><th scope="row">Outbound address (achievements go here)</th><td>${c.outboundUrl ?? 'none'}</td></tr>
<tr><th scope="row">Outbound deliveries</th><td>${c.outbound ? (c.outbound.enabled ? 'running' : `stopped: ${c.outbound.disabledReason ?? 'disabled'}`) : '-'}</td></tr>
</tbody></table></div>
<form class="card" method="post" action="/dashboard/hr-sync">${csrf(s)}<h2>Configuration</h2>
<div class="check"><input type="checkbox" id="hr-enabled" name="enabled" value="1"${c.enabled ? ' checked' : ''}> <label for="hr-enabled">HR sync is on</label></div>
<label for="hr-out">Outbound URL (https; empty for none)</label><input id="hr-out" name="outboundUrl" value="${c.outboundUrl ?? ''}" maxlength="2048">
<label for="hr-header">Header that carries the webhook key</label><input id="hr-header" name="headerName" value="${c.authentication.headerName}" maxlength="100">
<label for="hr-map">Field mapping: one <code>hrField = learner.path</code> per line</label><textarea id="hr-map" name="fieldMapping" rows="8">${o.mapping ?? mappingText(c.fieldMapping as Record<string, string>)}</textarea>
<button type="submit">Save configuration</button></form>
<form class="card" method="post" action="/dashboard/hr-sync/rotate-key">${csrf(s)}
<p>A new webhook key is shown once; the previous one keeps working for 24 hours.</p>
<button type="submit">Rotate the webhook key</button></form>
<h2>Inbound events</h2>
${
  events.items.length
    ? html`<div class="table" tabindex="0"><table><thead><tr><th scope="col">Received</th><th scope="col">Event</th><th scope="col">Result</th><th scope="col">Error</th></tr></thead><tbody>
${events.items.map(
  (e) =>
    html`<tr><td>${e.receivedAt.slice(0, 16).replace('T', ' ')}</td><td>${e.event}</td><td>${e.result}</td><td>${e.error ? `${e.error.code}: ${e.error.message}` : ''}</td></tr>`,
)}</tbody></table></div>`
    : html`<p>No events received yet.</p>`
}
${when(
  deliveries,
  () => html`<h2>Outbound deliveries</h2>
${
  deliveries!.items.length
    ? html`<div class="table" tabindex="0"><table><thead><tr><th scope="col">At</th><th scope="col">Event</th><th scope="col">Attempt</th><th scope="col">Answer</th><th scope="col">Action</th></tr></thead><tbody>
${deliveries!.items.map(
  (a) =>
    html`<tr><td>${a.at.slice(0, 16).replace('T', ' ')}</td><td>${a.eventType}</td><td>${a.attempt}</td><td>${a.statusCode ?? a.error ?? ''}</td><td><form method="post" action="/dashboard/hr-sync/deliveries/${a.deliveryId}/replay">${csrf(s)}<button type="submit">Replay</button></form></td></tr>`,
)}</tbody></table></div>`
    : html`<p>Nothing sent yet.</p>`
}`,
)}`,
    });
  };

  const guarded = async (
    ctx: Context,
    s: SessionContext,
    work: () => Promise<{ notice: { text: string }; shown?: Shown }>,
    mapping?: string,
  ) => {
    requireAdmin(s);
    try {
      return render(ctx, s, await work());
    } catch (e) {
      if (isDomainError(e) && (e.kind === 'invalid' || e.kind === 'conflict' || e.kind === 'not_found'))
        return render(ctx, s, { notice: { text: describe(e), error: true }, mapping });
      throw e;
    }
  };

  r.get('/dashboard/hr-sync', async (ctx, s) => render(ctx, s));

  r.post('/dashboard/hr-sync', async (ctx, s, form) => {
    const mapping = form.get('fieldMapping') ?? '';
    return guarded(
      ctx,
      s,
      async () => {
        const saved = await u.put.execute(
          s.actor,
          {
            enabled: form.get('enabled') === '1',
            outboundUrl: field(form, 'outboundUrl') ?? null,
            authentication: { type: 'api_key', headerName: field(form, 'headerName') },
            fieldMapping: parseMapping(mapping),
          },
          originOf(ctx),
        );
        const secret = (saved as { signingSecret?: string }).signingSecret;
        return {
          notice: { text: 'Configuration saved.' },
          ...(secret
            ? {
                shown: {
                  label: 'Outbound signing secret',
                  id: 'hr-secret',
                  value: secret,
                  note: 'Give it to the HR system to check our signatures. It is shown only this once.',
                },
              }
            : {}),
        };
      },
      mapping,
    );
  });

  r.post('/dashboard/hr-sync/rotate-key', async (ctx, s) =>
    guarded(ctx, s, async () => {
      const k = await u.rotateKey.execute(s.actor, originOf(ctx));
      return {
        notice: { text: 'A new webhook key was made.' },
        shown: {
          label: 'Webhook key',
          id: 'hr-key',
          value: k.key,
          note: `The HR system sends it in the ${k.headerName} header. Copy it now: it is shown only this once.`,
        },
      };
    }),
  );

  r.post('/dashboard/hr-sync/deliveries/:id/replay', async (ctx, s) =>
    guarded(ctx, s, async () => {
      await u.replayDelivery.execute(s.actor, ctx.params.id!);
      return { notice: { text: 'The delivery is sent again.' } };
    }),
  );
}
