import type { DeliveryTask } from '@fundi/application/webhooks';
import type { AttemptResult } from '@fundi/domain/webhooks';
import { FixedClock } from '@fundi/testing';
import { describe, expect, it } from 'vitest';
import { DeliveryPump } from './delivery-pump.js';
import type { WorkerDeps } from './worker-ports.js';

const task = (n: number): DeliveryTask => ({
  deliveryId: `dlv_${n}`,
  tenantId: 'ten_1',
  subscriptionId: 'whs_1',
  attempt: 1,
  webhook: {
    url: 'https://hooks.example.com/in',
    eventId: `evt_${n}`,
    eventType: 'learner.created',
    body: '{}',
    secrets: [],
  },
});

/** A pump over a transport whose requests end when the test says; it records what was sent and written. */
function aPump(concurrency: number) {
  const clock = new FixedClock();
  const sent: string[] = [];
  const written: string[] = [];
  const pending: ((r: AttemptResult) => void)[] = [];
  const deps = {
    clock,
    logger: { info() {}, warn() {}, error() {} },
    claimDeliveries: { execute: async () => [] },
    recordOutcomes: {
      execute: async (_owner: string, outcomes: { task: DeliveryTask }[]) => {
        written.push(...outcomes.map((o) => o.task.deliveryId));
      },
    },
    transport: {
      timeoutMs: 1000,
      send: (w: { eventId: string }) => {
        sent.push(w.eventId);
        return new Promise<AttemptResult>((ok) => pending.push(ok));
      },
    },
  } as unknown as WorkerDeps;
  const pump = new DeliveryPump(deps, { owner: 'w1', leaseMs: 30_000, pollMs: 1000, concurrency, graceMs: 500 });
  const finishAll = () => {
    for (const ok of pending.splice(0)) ok({ statusCode: 204, latencyMs: 1, error: null, responseExcerpt: null });
  };
  return { pump, clock, sent, written, finishAll };
}

describe('DeliveryPump: deliveries handed over by the fan-out', () => {
  it('sends handed deliveries up to its concurrency, holds the rest, and takes at most 160 per slot', async () => {
    const { pump, clock, sent, written, finishAll } = aPump(2);
    expect(pump.handOffRoom).toBe(320);
    const leaseEnds = clock.now().getTime() + 30_000;
    pump.accept([task(1), task(2), task(3)], leaseEnds);
    expect(sent).toEqual(['evt_1', 'evt_2']);
    expect(pump.handOffRoom).toBe(317);
    expect(pump.room).toBe(1);
    finishAll();
    await new Promise((ok) => setTimeout(ok, 50));
    expect(sent).toEqual(['evt_1', 'evt_2', 'evt_3']);
    finishAll();
    await pump.drain(1000);
    expect(written.sort()).toEqual(['dlv_1', 'dlv_2', 'dlv_3']);
    expect(pump.handOffRoom).toBe(0);
  });

  it('takes at most 16,384 handed deliveries whatever its concurrency', () => {
    expect(aPump(64).pump.handOffRoom).toBe(10_240);
    expect(aPump(1000).pump.handOffRoom).toBe(16_384);
  });

  it('does not send a handed delivery whose lease would run out during the attempt', () => {
    const { pump, clock, sent } = aPump(2);
    pump.accept([task(1)], clock.now().getTime() + 500);
    expect(sent).toEqual([]);
  });
});
