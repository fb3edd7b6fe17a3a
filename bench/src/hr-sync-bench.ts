import { Pool } from 'undici';
import { idNumberFor, learnerInput } from './fixtures.js';
import { printRows, spawnServer, type LoadResult, type Row } from './harness.js';

interface HrInfo {
  key: string;
  hrKey: string;
  slug: string;
}

const EVENTS = 1000;
const CONNECTIONS = 20;
const ROUNDS = 3;

const median = (runs: LoadResult[]) => [...runs].sort((a, b) => a.rps - b.rps)[Math.floor(runs.length / 2)]!;

/**
 * Exactly `amount` POSTs over `CONNECTIONS` keep-alive connections (an undici pool, cheaper than fetch on a shared
 * machine), each with its own body, timed from the first send to the last answer. autocannon's `amount` mode ends
 * on its 1-second tick, which would round the rate.
 */
async function fixed(
  url: string,
  headers: Record<string, string>,
  body: () => string,
  amount: number,
): Promise<LoadResult> {
  const u = new URL(url);
  const pool = new Pool(u.origin, { connections: CONNECTIONS });
  const latencies: number[] = [];
  let sent = 0;
  let non2xx = 0;
  let errors = 0;
  const started = performance.now();
  const worker = async () => {
    while (sent < amount) {
      sent++;
      const t0 = performance.now();
      try {
        const res = await pool.request({
          path: u.pathname,
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: body(),
        });
        await res.body.dump();
        if (res.statusCode < 200 || res.statusCode > 299) non2xx++;
      } catch {
        errors++;
      }
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  latencies.sort((x, y) => x - y);
  const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!);
  return { rps: Math.round(amount / seconds), p50: at(0.5), p99: at(0.99), total: amount, non2xx, errors };
}

/**
 * 1,000 inbound `employee.enrolled` events (match, create the learner, enrol, log) at 20 connections on SQLite,
 * beside 1,000 plain `POST /learners` in the same run and server. Target: at least 50% of the plain rate.
 */
export async function hrSyncBench(): Promise<void> {
  const fundi = await spawnServer<HrInfo>('fundi-hr.js', {});
  try {
    let n = 0;
    // Warm-up on both paths (connections, statement caches), not counted.
    await fixed(
      `${fundi.url}/api/v1/learners`,
      { authorization: `Bearer ${fundi.info.key}` },
      () => JSON.stringify(learnerInput(2_000_000 + ++n)),
      200,
    );
    let m = 0;
    const event = () => {
      m++;
      return JSON.stringify({
        id: `bench-${m}`,
        event: 'employee.enrolled',
        data: {
          employeeId: `HR-${m}`,
          firstName: `First${m}`,
          lastName: `Last${m}`,
          saIdNumber: idNumberFor(3_000_000 + m),
          email: `employee${m}@example.co.za`,
          programmeCode: 'HR-BENCH',
        },
      });
    };
    const learnersUrl = `${fundi.url}/api/v1/learners`;
    const auth = { authorization: `Bearer ${fundi.info.key}` };
    const hrUrl = `${fundi.url}/api/v1/tenants/${fundi.info.slug}/webhooks/hr-sync`;
    const hrAuth = { 'x-api-key': fundi.info.hrKey };
    await fixed(hrUrl, hrAuth, event, 200);
    // The machine is shared: three interleaved rounds of each, the median round of each reported.
    const plainRuns: LoadResult[] = [];
    const inboundRuns: LoadResult[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      plainRuns.push(await fixed(learnersUrl, auth, () => JSON.stringify(learnerInput(1_000_000 + ++n)), EVENTS));
      inboundRuns.push(await fixed(hrUrl, hrAuth, event, EVENTS));
    }
    const plain = median(plainRuns);
    const inbound = median(inboundRuns);
    const rows: Row[] = [
      { scenario: 'sqlite: POST /learners (plain create)', result: plain },
      {
        scenario: 'sqlite: POST /webhooks/hr-sync employee.enrolled (match + create + enrol + log)',
        result: inbound,
        baseline: { name: 'POST /learners', rps: plain.rps },
        target: { text: '>= 50% of POST /learners', met: inbound.rps >= plain.rps * 0.5 && inbound.non2xx === 0 },
      },
    ];
    printRows(
      `HR sync inbound: ${EVENTS} events at ${CONNECTIONS} connections (median of ${ROUNDS} interleaved rounds), same run`,
      rows,
    );
  } finally {
    await fundi.stop();
  }
}
