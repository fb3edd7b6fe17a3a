import type { AuditTrail } from '@fundi/domain/audit';

/** How many answers (tenant and key) a process keeps. */
const KEPT = 64;

/**
 * Answers kept until the tenant's data changes (docs/dashboard.md, "Pages": the overview). Every change to a learner,
 * enrolment, assessment, programme or evidence is audited, and the audit entry moves the tenant's audit head (`seq`)
 * in the transaction that makes the change, so an answer counted at one head is answered again only while the head is
 * still there: every process reads the head from the database, so two processes agree, and a write shows on the next
 * read. The head is read before counting, so a change made during a count makes the next read count again.
 */
export class KeptUntilChange<T> {
  private readonly kept = new Map<string, { seq: number; value: T }>();
  private readonly running = new Map<string, { seq: number; counting: Promise<T> }>();

  constructor(private readonly auditTrail: Pick<AuditTrail, 'head'>) {}

  async get(tenantId: string, key: string, count: () => Promise<T>): Promise<T> {
    const k = `${tenantId}|${key}`;
    const seq = (await this.auditTrail.head(tenantId))?.seq ?? 0;
    const kept = this.kept.get(k);
    if (kept && kept.seq === seq) return kept.value;
    const run = this.running.get(k);
    if (run && run.seq === seq) return run.counting;
    const counting = count().then((value) => {
      const before = this.kept.get(k);
      if (!before || before.seq <= seq) {
        this.kept.delete(k);
        this.kept.set(k, { seq, value });
        while (this.kept.size > KEPT) this.kept.delete(this.kept.keys().next().value!);
      }
      return value;
    });
    this.running.set(k, { seq, counting });
    const forget = () => {
      if (this.running.get(k)?.counting === counting) this.running.delete(k);
    };
    counting.then(forget, forget);
    return counting;
  }
}
