import type pg from 'pg';
import { startReceiverProcess, type Receiver } from '../webhook-parts.js';
import { smtpSink, type SmtpSink } from '../notification-parts.js';
import { scratchDir } from '../scratch.js';
import { databaseUrl, startApp, type App } from './apps.js';
import { Meter } from './measure.js';
import { startWireCounter, type WireCounter } from './wire-counter.js';
import { MASTER_KEY, call, probeClient, seedTenant, type Place } from './world.js';

/** The processes under measurement, their wire counters, and the sinks they send to. */
export interface Rig {
  place: Place;
  api: App;
  worker: App;
  key: string;
  probe: pg.Client;
  receiver: Receiver;
  smtp: SmtpSink;
  meter: Meter;
  wires: WireCounter[];
  /** The server's own statistics connection, and whether it has pg_stat_statements (a private cluster). */
  admin: pg.Client;
  statementStats: boolean;
  close(): Promise<void>;
}

/** One API and one worker process on `place`, each through a wire counter; `admin` reads the server's statistics. */
export async function startRig(
  place: Place,
  admin: pg.Client,
  clusterCpu: (() => number) | null,
  statementStats: boolean,
): Promise<Rig> {
  const { key } = await seedTenant(place);
  const receiver = await startReceiverProcess();
  const smtp = await smtpSink();
  const apiWire = await startWireCounter(place.host, place.port);
  const workerWire = await startWireCounter(place.host, place.port);
  const common = {
    FUNDI_DATA_DIR: scratchDir('fundi-scaling-data-'),
    FUNDI_MASTER_KEY: MASTER_KEY.toString('base64'),
    FUNDI_SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    FUNDI_SMTP_FROM: 'Scaling Academy <no-reply@bench.example>',
    FUNDI_PUBLIC_URL: 'https://bench.example',
    FUNDI_WEBHOOK_ALLOW_HTTP: 'true',
    FUNDI_WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
  };
  const via = (w: WireCounter) =>
    databaseUrl(`postgres://postgres@127.0.0.1:${w.port}/${place.database}`, place.schema);
  const api = await startApp('api', { ...common, DATABASE_URL: via(apiWire) });
  const worker = await startApp('worker', { ...common, DATABASE_URL: via(workerWire) });
  const probe = await probeClient(place);
  const meter = new Meter(
    admin,
    [
      { name: 'api', pid: () => api.pid, wire: apiWire },
      { name: 'worker', pid: () => worker.pid, wire: workerWire },
    ],
    clusterCpu,
  );
  // Welcome and result messages are measured as emails of their own; here a registration and an assessment are
  // measured alone.
  await call(api.url, key, 'PUT', '/api/v1/notification-settings', {
    triggers: { welcome: false, assessment_result: false },
  });
  return {
    place,
    api,
    worker,
    key,
    probe,
    receiver,
    smtp,
    meter,
    wires: [apiWire, workerWire],
    admin,
    statementStats,
    async close() {
      await api.stop();
      await worker.stop();
      await probe.end();
      await receiver.stop();
      await smtp.close();
      for (const w of [apiWire, workerWire]) await w.close();
    },
  };
}
