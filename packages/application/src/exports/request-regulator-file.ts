import type { Actor } from '../common/actor.js';
import type { ExportPorts } from './export-ports.js';
import type { DryRunReport, ExportView } from './export-view.js';
import { checkRequest } from './export-request.js';
import { ReadinessCollector, qcto01Chunks, qcto02Chunks } from './export-writers.js';
import { regulatorSettingsOf } from './export-links.js';
import type { RequestExport } from './request-export.js';

type FileType = 'qcto01' | 'qcto02';
type Filters = { programmeId?: string; from?: string; to?: string };

/** A readiness report with how many learners each field kept out (all of them, not only the listed findings). */
export interface CountedReadiness {
  report: DryRunReport;
  byField: { field: string; learners: number }[];
  /** When it was worked out (ISO 8601). */
  countedAt: string;
}

interface Counted extends CountedReadiness {
  /** The tenant's audit head when the count began, and the day it was for. */
  seq: number;
  today: string;
}

/** A count gives the server's other requests a turn after holding the thread this long (ms). */
const BREATHE_MS = 10;
/** The overview starts a new count of a file at most this often (ms). */
const RECOUNT_MS = 5 * 60_000;
/** How many reports (tenant, file, filters) a process keeps. */
const KEPT = 16;

/**
 * A regulator file: a dry run answers only the readiness report; a real run is queued like any export.
 *
 * A dry run reads every selected learner (QCTO02: with their enrolments and results), so its report is kept and
 * answered again while nothing of the tenant changed (docs/dashboard.md, "Pages": QCTO readiness): every change to a learner,
 * enrolment, assessment, programme or the regulator settings is audited, and each audit entry moves the tenant's
 * audit head (`seq`) in the transaction that makes the change. A report is answered only for the head it was
 * counted at and the same day; any change makes the next dry run count again, so a fixed finding is gone at once.
 */
export class RequestRegulatorFile {
  private readonly done = new Map<string, Counted>();
  private readonly running = new Map<string, { seq: number; today: string; counting: Promise<Counted> }>();

  constructor(
    private readonly d: ExportPorts,
    private readonly requestExport: RequestExport,
  ) {}

  async execute(
    actor: Actor,
    type: FileType,
    body: { dryRun?: boolean } & Filters,
    origin?: string,
  ): Promise<{ dryRun: true; report: DryRunReport } | { dryRun: false; export: ExportView }> {
    const { dryRun, ...filters } = body;
    if (!dryRun) return { dryRun: false, export: await this.requestExport.execute(actor, { type, filters }, origin) };
    return { dryRun: true, report: (await this.current(actor, type, filters)).report };
  }

  /** The dry run's report with its counts by field, as of now (counted again when the tenant changed). */
  async current(actor: Actor, type: FileType, filters: Filters = {}): Promise<CountedReadiness> {
    const checked = await checkRequest(this.d, actor.tenantId, { type, filters });
    const key = `${actor.tenantId}|${type}|${JSON.stringify(checked.filters)}`;
    const { seq, today } = await this.version(actor.tenantId);
    const kept = this.done.get(key);
    if (kept && kept.seq === seq && kept.today === today) return kept;
    const run = this.running.get(key);
    if (run && run.seq === seq && run.today === today) return run.counting;
    const counting = this.count(actor.tenantId, type, checked.filters, today).then((c) => {
      const counted = { ...c, seq, today };
      const before = this.done.get(key);
      if (!before || before.seq <= seq) this.keep(key, counted);
      return counted;
    });
    this.running.set(key, { seq, today, counting });
    const forget = () => {
      if (this.running.get(key)?.counting === counting) this.running.delete(key);
    };
    counting.then(forget, forget);
    return counting;
  }

  /**
   * The last report counted for the tenant's whole file, at once: `current` false when the tenant changed since
   * (a new count then begins if the last is at least `RECOUNT_MS` old). Null when none was counted yet (one has
   * begun).
   */
  async latest(actor: Actor, type: FileType): Promise<(CountedReadiness & { current: boolean }) | null> {
    const checked = await checkRequest(this.d, actor.tenantId, { type, filters: {} });
    const key = `${actor.tenantId}|${type}|${JSON.stringify(checked.filters)}`;
    const { seq, today } = await this.version(actor.tenantId);
    const kept = this.done.get(key);
    if (kept && kept.seq === seq && kept.today === today) return { ...kept, current: true };
    // A count of every learner reads the whole tenant (QCTO02 also every enrolment and result; docs/benchmarks.md
    // has its time at 10,000 learners): the overview starts one at most every `RECOUNT_MS` per file and tenant, so
    // a tenant that changes all day is not counted over and over; the readiness page always counts what it shows.
    const age = kept ? this.d.clock.now().getTime() - Date.parse(kept.countedAt) : Number.POSITIVE_INFINITY;
    if (age >= RECOUNT_MS) this.current(actor, type).catch(() => undefined);
    return kept ? { ...kept, current: false } : null;
  }

  private async version(tenantId: string): Promise<{ seq: number; today: string }> {
    const head = await this.d.repos.auditTrail.head(tenantId);
    return { seq: head?.seq ?? 0, today: this.d.clock.now().toISOString().slice(0, 10) };
  }

  private keep(key: string, c: Counted): void {
    this.done.delete(key);
    this.done.set(key, c);
    while (this.done.size > KEPT) this.done.delete(this.done.keys().next().value!);
  }

  private async count(
    tenantId: string,
    type: FileType,
    filters: Parameters<typeof qcto01Chunks>[2],
    today: string,
  ): Promise<CountedReadiness> {
    const countedAt = this.d.clock.now().toISOString();
    const settings = await regulatorSettingsOf(this.d.repos, tenantId);
    const collector = new ReadinessCollector(BREATHE_MS);
    const gen = type === 'qcto01' ? qcto01Chunks : qcto02Chunks;
    for await (const _ of gen(this.d.repos, tenantId, filters, settings, today, collector));
    return { report: { type, dryRun: true, ...collector.report() }, byField: collector.byField(), countedAt };
  }
}
