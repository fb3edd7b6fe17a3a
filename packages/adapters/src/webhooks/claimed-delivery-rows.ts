import type { ClaimedDelivery } from '@fundi/domain/webhooks';
import type { SqlDb } from '../db/sql-db.js';
import type { Row } from '../db/sql-helpers.js';
import { eventOf } from '../platform/sql-outbox.js';
import { rowToDelivery } from './webhook-rows.js';

/** A claimed delivery as the claim reads it: the delivery's row with its event's and subscription's columns. */
export const CLAIMED_COLUMNS = `d.*, e.type AS e_type, e.occurred_at AS e_occurred_at, e.data AS e_data,
  s.url AS s_url, s.enabled AS s_enabled, s.secret_ciphertext AS s_secret, s.previous_secret_ciphertext AS s_previous,
  s.previous_secret_expires_at AS s_previous_expires`;
/** A claimed delivery's event (found by primary key whatever the statistics) and subscription. */
export const claimedJoins = (db: SqlDb) =>
  `${db.dialect.joinByKey({ table: 'outbox_events', alias: 'e', columns: ['type', 'occurred_at', 'data'], key: 'id', equals: 'd.event_id' })}
  JOIN webhook_subscriptions s ON s.id = d.subscription_id`;

/** The claimed delivery of one row of the claim. */
export function claimedOf(r: Row): ClaimedDelivery {
  return {
    delivery: rowToDelivery(r),
    event: eventOf({
      id: String(r.event_id),
      tenant_id: String(r.tenant_id),
      type: String(r.e_type),
      occurred_at: String(r.e_occurred_at),
      data: String(r.e_data),
    }),
    subscription: {
      url: String(r.s_url),
      enabled: Boolean(r.s_enabled),
      secretCiphertext: String(r.s_secret),
      previousSecretCiphertext: (r.s_previous as string | null) ?? null,
      previousSecretExpiresAt: (r.s_previous_expires as string | null) ?? null,
    },
  };
}
