import { expect } from 'vitest';
import { GOLDEN_READY_PROFILE, GOLDEN_SETTINGS, idNumberFor } from '@fundi/domain/testing';
import { FixedClock } from '@fundi/testing';
import type { FormUnderTest } from './http-forms.js';
import { describeServerSuite } from './server-suite.js';
import { startTestServer, type TestServer } from './test-server.js';
import { programmeBody } from './training-fixtures.js';

/** Regulator settings that make a tenant's QCTO files complete: those of the golden files. */
export const REGULATOR_SETTINGS = GOLDEN_SETTINGS;

const prefixOf = (form: FormUnderTest, slug: string) => form.learners(slug).replace(/\/learners$/, '');

/**
 * Exports through HTTP on the server `server()` answers for: a tenant with a programme and three learners enrolled
 * in it (one with formula-like cells, one with accents, one with a passport), and the export's wait and download.
 */
export function exportWorlds(server: () => TestServer, kind: string) {
  let n = 0;
  async function finished(prefix: string, key: string, id: string) {
    for (let i = 0; i < 400; i++) {
      const r = await server().call('GET', `${prefix}/exports/${id}`, key);
      expect(r.status).toBe(200);
      if (r.body.status === 'ready' || r.body.status === 'failed') return r.body;
      await new Promise((res) => setTimeout(res, 25));
    }
    throw new Error('export did not finish');
  }

  async function download(prefix: string, key: string, id: string): Promise<Buffer> {
    const g = await server().call('GET', `${prefix}/exports/${id}/download`, key);
    expect(g.status, JSON.stringify(g.body)).toBe(200);
    const res = await fetch(g.body.url);
    expect(res.status).toBe(200);
    return Buffer.from(await res.arrayBuffer());
  }

  async function world(form: FormUnderTest) {
    const s = server();
    const at = ++n;
    const slug = `exp-${kind}-${at}`;
    const key = (await s.tenant(slug)).key;
    const prefix = prefixOf(form, slug);
    const code = `P-EX${at}`;
    const programme = await s.call('POST', `${prefix}/programmes`, key, programmeBody(code));
    const learners = [];
    const bodies = [
      { firstName: '=1+1', middleName: '+SUM(1)', lastName: '@x', jobTitle: '-12.5', mobile: '+27831234567' },
      { firstName: 'Zoë', lastName: "O'Neil", department: '-2+3' },
      {
        firstName: 'Tendai',
        lastName: 'Moyo',
        idNumber: undefined,
        alternateId: `FN${at}1`,
        alternateIdType: 'passport',
        dateOfBirth: '1995-03-02',
        gender: 'M',
        nationalityCode: 'ZIM',
      },
    ];
    for (const [i, b] of bodies.entries()) {
      const r = await s.call('POST', `${prefix}/learners`, key, {
        idNumber: idNumberFor(at * 10 + i),
        ...GOLDEN_READY_PROFILE,
        ...b,
      });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      learners.push(r.body);
      const e = await s.call('POST', `${prefix}/enrolments`, key, {
        learnerId: r.body.id,
        programmeCode: code,
        startDate: '2026-02-01',
        expectedEndDate: '2026-11-30',
      });
      expect(e.status).toBe(201);
    }
    /** `spareIdNumber` is an SA ID number no learner of any world holds yet. */
    return {
      slug,
      key,
      prefix,
      code,
      spareIdNumber: idNumberFor(at * 10 + 9),
      programmeId: programme.body.id as string,
      learners,
    };
  }

  return { finished, download, world };
}

/** The server of an export suite, and the clock it runs on. */
export interface ExportServer {
  s: TestServer;
  clock: FixedClock;
}

/**
 * An export HTTP suite on SQLite and Postgres, each against a server with a worker on a clock at 2026-06-01 08:00
 * UTC, and `exportWorlds` on that server; `tag` keeps one file's tenants apart from another's.
 */
export function describeExportSuite(
  name: string,
  tag: string,
  suite: (server: () => ExportServer, worlds: ReturnType<typeof exportWorlds>) => void,
): void {
  describeServerSuite(
    name,
    async (kind) => {
      const clock = new FixedClock(new Date('2026-06-01T08:00:00.000Z'));
      return { s: await startTestServer(kind, { clock, worker: {} }), clock };
    },
    (server, kind) =>
      suite(
        server,
        exportWorlds(() => server().s, `${kind}${tag}`),
      ),
  );
}
