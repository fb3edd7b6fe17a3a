import { newId } from '@fundi/domain';
import type { HrEventEntry, HrSyncConfigSnapshot } from '@fundi/domain/hr-sync';
import type { HrSyncDeps } from './hr-sync-ports.js';
import type { HrEventBody } from './hr-inbound-call.js';

/** Logs an inbound event with its outcome (the log `GET /hr-sync/events` reads). */
export async function logHrEvent(
  d: Pick<HrSyncDeps, 'clock' | 'uow'>,
  c: HrSyncConfigSnapshot,
  body: HrEventBody,
  eventKey: string,
  entry: Partial<Pick<HrEventEntry, 'response' | 'error' | 'learnerId' | 'data'>> & Pick<HrEventEntry, 'result'>,
): Promise<void> {
  const now = d.clock.now();
  await d.uow.run((tx) =>
    tx.hrEvents.add({
      id: newId('hre', now.getTime()),
      tenantId: c.tenantId,
      eventKey,
      hrEventId: typeof body.id === 'string' ? body.id : null,
      event: String(body.event).slice(0, 100),
      receivedAt: now.toISOString(),
      response: null,
      error: null,
      learnerId: null,
      data: null,
      redacted: false,
      ...entry,
    }),
  );
}
