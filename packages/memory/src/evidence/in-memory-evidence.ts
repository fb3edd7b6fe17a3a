import { DomainError, type Page, type PageRequest } from '@fundi/domain';
import {
  AWAITING_UPLOAD,
  Evidence,
  foldFilename,
  type EvidenceFileKey,
  type EvidenceFilter,
  type EvidenceRepository,
  type EvidenceSnapshot,
} from '@fundi/domain/evidence';
import type { MemoryStore } from '../common/memory-store.js';
import { pageOf } from '../common/paging.js';
import type { TrainingTables } from '../training/index.js';
import type { EvidenceRow, EvidenceTables } from './evidence-tables.js';
import * as purges from './in-memory-evidence-purges.js';

const clone = <T>(x: T): T => structuredClone(x);

export class InMemoryEvidenceRepository implements EvidenceRepository {
  constructor(private readonly store: MemoryStore<EvidenceTables & Partial<Pick<TrainingTables, 'enrolments'>>>) {}

  private get t() {
    return this.store.tables;
  }

  private full(row: EvidenceRow): EvidenceSnapshot {
    const { version, awaiting, ...rest } = row;
    const current =
      version === 0 && awaiting
        ? Evidence.awaitingVersion(row, awaiting.filename, awaiting.createdBy)
        : this.t.evidenceVersions.get(`${row.id}:${version}`)!;
    return clone({ ...rest, current });
  }

  private row(e: EvidenceSnapshot, awaiting: EvidenceRow['awaiting'] = null): EvidenceRow {
    const { current, ...rest } = e;
    return clone({ ...rest, version: current.version, awaiting });
  }

  async insert(e: EvidenceSnapshot) {
    if (this.t.evidence.has(e.id)) throw DomainError.conflict('duplicate_evidence', 'This evidence exists already');
    if (e.current.status === AWAITING_UPLOAD) {
      this.t.evidence.set(e.id, this.row(e, { filename: e.current.filename, createdBy: e.current.uploadedBy }));
      return;
    }
    this.t.evidence.set(e.id, this.row(e));
    this.t.evidenceVersions.set(`${e.id}:${e.current.version}`, clone(e.current));
  }

  async addVersion(e: EvidenceSnapshot) {
    const key = `${e.id}:${e.current.version}`;
    const cur = this.t.evidence.get(e.id);
    if (!cur || cur.tenantId !== e.tenantId) throw DomainError.notFound('evidence', e.id);
    if (this.t.evidenceVersions.has(key))
      throw DomainError.conflict('duplicate_version', `Version ${e.current.version} exists already`);
    this.t.evidenceVersions.set(key, clone(e.current));
    this.t.evidence.set(e.id, this.row(e));
  }

  async saveReview(e: EvidenceSnapshot) {
    const key = `${e.id}:${e.current.version}`;
    const v = this.t.evidenceVersions.get(key);
    if (!v || v.tenantId !== e.tenantId || v.status !== 'submitted') return false;
    this.t.evidenceVersions.set(key, clone(e.current));
    this.t.evidence.set(e.id, { ...this.t.evidence.get(e.id)!, updatedAt: e.updatedAt });
    return true;
  }

  async findById(tenantId: string, id: string, o: { withDeleted?: boolean } = {}) {
    const r = this.t.evidence.get(id);
    if (!r || r.tenantId !== tenantId || (r.deletedAt && !o.withDeleted)) return null;
    return this.full(r);
  }

  async findByIds(tenantId: string, ids: readonly string[]) {
    const out: EvidenceSnapshot[] = [];
    for (const id of [...new Set(ids)].sort()) {
      const e = await this.findById(tenantId, id);
      if (e) out.push(e);
    }
    return out;
  }

  async findByFileNames(tenantId: string, keys: readonly EvidenceFileKey[]) {
    const key = (learnerId: string, moduleId: string, filename: string) =>
      `${learnerId}\u0000${moduleId}\u0000${foldFilename(filename)}`;
    const wanted = new Set(keys.map((k) => key(k.learnerId, k.moduleId, k.filename)));
    return [...this.t.evidence.values()]
      .filter((r) => r.tenantId === tenantId && !r.deletedAt)
      .map((r) => this.full(r))
      .filter((e) => wanted.has(key(e.learnerId, e.moduleId, e.current.filename)))
      .sort((a, b) => (a.id < b.id ? -1 : 1));
  }

  /** The fake's units of work run one at a time: nothing to lock. */
  async lockFileNames(_tenantId: string): Promise<void> {}

  async list(tenantId: string, f: EvidenceFilter, page: PageRequest): Promise<Page<EvidenceSnapshot>> {
    const all = [...this.t.evidence.values()]
      .filter((r) => r.tenantId === tenantId && !r.deletedAt)
      .map((r) => this.full(r))
      .filter(
        (e) =>
          (!f.learnerId || e.learnerId === f.learnerId) &&
          (!f.moduleId || e.moduleId === f.moduleId) &&
          (!f.enrolmentId || e.enrolmentId === f.enrolmentId) &&
          (f.status ? e.current.status === f.status : e.current.status !== AWAITING_UPLOAD) &&
          (!f.evidenceType || e.evidenceType === f.evidenceType) &&
          (!f.from || e.createdAt >= f.from) &&
          (!f.to || e.createdAt <= f.to),
      );
    return pageOf(all, page);
  }

  async versions(tenantId: string, id: string) {
    return [...this.t.evidenceVersions.values()]
      .filter((v) => v.tenantId === tenantId && v.evidenceId === id)
      .sort((a, b) => a.version - b.version)
      .map(clone);
  }

  async markDeleted(tenantId: string, id: string, at: string) {
    const r = this.t.evidence.get(id);
    if (!r || r.tenantId !== tenantId || r.deletedAt) return false;
    this.t.evidence.set(id, { ...r, deletedAt: at, updatedAt: at });
    return true;
  }

  async restore(tenantId: string, id: string, at: string) {
    const r = this.t.evidence.get(id);
    if (!r || r.tenantId !== tenantId || !r.deletedAt) return false;
    this.t.evidence.set(id, { ...r, deletedAt: null, updatedAt: at });
    return true;
  }

  async deletedBefore(before: string, limit: number) {
    return purges.deletedBefore(this.t, before, limit);
  }

  async storageKeys(after: string | null, limit: number) {
    return purges.storageKeysAfter(this.t, after, limit);
  }

  async ofLearner(tenantId: string, learnerId: string) {
    return purges.ofLearner(this.t, tenantId, learnerId);
  }

  async pastRetention(tenantId: string, completedOnOrBefore: string, limit: number) {
    return purges.pastRetention(this.t, tenantId, completedOnOrBefore, limit);
  }

  async remove(tenantId: string, id: string) {
    purges.removeEvidence(this.t, tenantId, id);
  }

  async usage(tenantId: string) {
    let bytes = 0;
    let files = 0;
    for (const v of this.t.evidenceVersions.values()) {
      if (v.tenantId !== tenantId) continue;
      bytes += v.size;
      files += 1;
    }
    return { bytes, files };
  }

  async enrolmentsWithUploadsSince(tenantId: string, since: string) {
    const found = new Set<string>();
    for (const v of this.t.evidenceVersions.values()) {
      const e = this.t.evidence.get(v.evidenceId);
      if (v.tenantId === tenantId && v.createdAt >= since && e && e.deletedAt === null) found.add(e.enrolmentId);
    }
    return [...found];
  }
}
