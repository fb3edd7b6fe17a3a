import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  DomainError,
  holderOf,
  newId,
  newVerificationCode,
  type Page,
  type PageRequest,
  type StatementSnapshot,
} from '@fundi/domain';
import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import { expiredUrl, invalidUrl } from '../evidence/evidence-signed-urls.js';
import { gatherStatement } from './statement-content.js';
import type { StatementPorts } from './statement-ports.js';
import { statementView, verifyUrlOf, type StatementView } from './statement-view.js';

const DOWNLOAD = 'statement-download';
const URL_TTL_MS = 3_600_000;

export const STATEMENT_ISSUED = 'statement.issued';
export const STATEMENT_REVOKED = 'statement.revoked';

export const statementKey = (tenantId: string, id: string) => `t/${tenantId}/statements/${id}.pdf`;

/** Statements of Results: issue, read, download, revoke (docs/api.md, "Statements of Results"). */
export class StatementService {
  constructor(private readonly d: StatementPorts) {}

  private base(origin?: string) {
    return (this.d.settings.publicUrl || origin || '').replace(/\/+$/, '');
  }

  /**
   * `POST /learners/{id}/statements`: gathers the results (409 while a module has none), lays out the PDF, stores it
   * encrypted, then records it with its SHA-256, its audit entry and `statement.issued` in one transaction. A failed
   * record removes the stored file.
   */
  async issue(actor: Actor, learnerId: string, enrolmentId: string, origin?: string): Promise<StatementView> {
    const now = this.d.clock.now();
    const { learner, enrolment, content } = await gatherStatement(this.d, actor.tenantId, learnerId, enrolmentId);
    const id = newId('sor');
    const verificationCode = newVerificationCode();
    const base = this.base(origin);
    const pdf = await this.d.renderer.render({
      ...content,
      statementId: id,
      issuedOn: now.toISOString().slice(0, 10),
      verificationCode,
      verifyUrl: verifyUrlOf(base, verificationCode),
    });
    const s: StatementSnapshot = {
      id,
      tenantId: actor.tenantId,
      learnerId,
      enrolmentId: enrolment.id,
      programmeCode: content.programme.code,
      programmeName: content.programme.name,
      outcome: content.outcome,
      modules: content.modules,
      verificationCode,
      sha256: createHash('sha256').update(pdf).digest('hex'),
      size: pdf.length,
      storageKey: statementKey(actor.tenantId, id),
      holder: holderOf(learner.firstName, learner.lastName),
      issuedAt: now.toISOString(),
      issuedBy: actor.id,
      revokedAt: null,
      revokedBy: null,
      revokeReason: null,
    };
    await this.d.files.store(s.storageKey, Readable.from([pdf]), {
      as: { contentType: 'application/pdf', kind: 'document' },
    });
    try {
      await this.d.uow.run(async (tx) => {
        await tx.statements.insert(s);
        await recordChange(tx, actor, now, {
          action: STATEMENT_ISSUED,
          resourceType: 'statement',
          resourceId: id,
          learnerId,
          details: { enrolmentId: enrolment.id, outcome: s.outcome, sha256: s.sha256 },
          events: [{ type: STATEMENT_ISSUED, data: eventData(s) }],
        });
      });
    } catch (e) {
      await this.d.files.remove(s.storageKey);
      throw e;
    }
    return statementView(s, base);
  }

  async list(actor: Actor, learnerId: string, page: PageRequest, origin?: string): Promise<Page<StatementView>> {
    const found = await this.d.repos.statements.listForLearner(actor.tenantId, learnerId, page);
    if (found.total === 0 && !(await this.d.repos.learners.findById(actor.tenantId, learnerId)))
      throw DomainError.notFound('learner', learnerId);
    return { ...found, items: found.items.map((s) => statementView(s, this.base(origin))) };
  }

  private async find(actor: Actor, learnerId: string, id: string): Promise<StatementSnapshot> {
    const s = await this.d.repos.statements.findById(actor.tenantId, id);
    if (!s || s.learnerId !== learnerId) throw DomainError.notFound('statement', id);
    return s;
  }

  async get(actor: Actor, learnerId: string, id: string, origin?: string): Promise<StatementView> {
    return statementView(await this.find(actor, learnerId, id), this.base(origin));
  }

  /** A signed URL (3600 s) to the PDF, as evidence downloads answer; issuing it is audited. 409 once revoked. */
  async downloadUrl(actor: Actor, learnerId: string, id: string, origin?: string) {
    const s = await this.find(actor, learnerId, id);
    if (s.revokedAt) throw revoked();
    const now = this.d.clock.now();
    const expiresAt = new Date(now.getTime() + URL_TTL_MS);
    const token = this.d.signer.sign(`${actor.tenantId}|${id}|${expiresAt.getTime()}`, DOWNLOAD);
    await this.d.uow.run((tx) =>
      recordChange(tx, actor, now, {
        action: 'statement.download_url_issued',
        resourceType: 'statement',
        resourceId: id,
        learnerId,
      }),
    );
    return {
      url: `${this.base(origin)}/api/v1/files/statements/${token}`,
      expiresAt: expiresAt.toISOString(),
      filename: fileName(s),
      contentType: 'application/pdf',
      size: s.size,
    };
  }

  /** Opens a signed download URL: checks signature, tenant and expiry, audits the download. */
  async openDownload(token: string, tenantSlug: string | null, ip: string) {
    const [tenantId, id, exp] = this.d.signer.verify(token, DOWNLOAD)?.split('|') ?? [];
    if (!tenantId || !id || !exp) throw invalidUrl();
    if (tenantSlug !== null && (await this.d.repos.tenants.findById(tenantId))?.slug !== tenantSlug) throw invalidUrl();
    const now = this.d.clock.now();
    if (now.getTime() > Number(exp)) throw expiredUrl();
    const s = await this.d.repos.statements.findById(tenantId, id);
    if (!s) throw DomainError.notFound('statement', id);
    if (s.revokedAt) throw revoked();
    await this.d.uow.run((tx) =>
      recordChange(tx, { tenantId, id: 'signed-url', role: 'viewer', scopes: [], ip }, now, {
        action: 'statement.downloaded',
        resourceType: 'statement',
        resourceId: id,
        learnerId: s.learnerId,
      }),
    );
    return {
      contentType: 'application/pdf',
      size: s.size,
      filename: fileName(s),
      etag: s.sha256,
      open: (range?: { start: number; end: number }) => this.d.files.open(s.storageKey, range),
    };
  }

  /** Revokes a statement (admins, with a reason): audited, `statement.revoked`; 409 when it already is. */
  async revoke(actor: Actor, learnerId: string, id: string, reason: string, origin?: string): Promise<StatementView> {
    if (actor.role !== 'admin') throw DomainError.forbidden('Only an admin may revoke a statement');
    const text = reason.trim();
    if (!text) throw DomainError.invalid('reason', 'must say why the statement is revoked');
    const s = await this.find(actor, learnerId, id);
    const now = this.d.clock.now();
    const after: StatementSnapshot = { ...s, revokedAt: now.toISOString(), revokedBy: actor.id, revokeReason: text };
    await this.d.uow.run(async (tx) => {
      if (!(await tx.statements.revoke(actor.tenantId, id, { at: after.revokedAt!, by: actor.id, reason: text })))
        throw DomainError.conflict('statement_revoked', 'The statement is already revoked');
      await recordChange(tx, actor, now, {
        action: STATEMENT_REVOKED,
        resourceType: 'statement',
        resourceId: id,
        learnerId,
        details: { reason: text },
        changes: { status: { from: 'issued', to: 'revoked' } },
        events: [{ type: STATEMENT_REVOKED, data: revokedData(after) }],
      });
    });
    return statementView(after, this.base(origin));
  }

  /**
   * After an erasure: the learner's statements are revoked, what their public pages show is emptied and their PDFs
   * (which name the learner) are removed. Run by the job the erasure queues; running it again does nothing more.
   */
  async revokeForErasedLearner(tenantId: string, learnerId: string): Promise<number> {
    const now = this.d.clock.now();
    const all: StatementSnapshot[] = [];
    for (let offset = 0; ; offset += 100) {
      const p = await this.d.repos.statements.listForLearner(tenantId, learnerId, {
        kind: 'offset',
        offset,
        limit: 100,
      });
      all.push(...p.items);
      if (!p.hasMore) break;
    }
    const ids = await this.d.uow.run(async (tx) => {
      const revokedIds = await tx.statements.revokeForErasedLearner(tenantId, learnerId, now.toISOString());
      for (const s of all.filter((x) => revokedIds.includes(x.id)))
        await recordChange(tx, { tenantId, id: 'system', role: 'admin', scopes: [] }, now, {
          action: STATEMENT_REVOKED,
          resourceType: 'statement',
          resourceId: s.id,
          learnerId,
          details: { reason: 'learner_erased' },
          changes: { status: { from: 'issued', to: 'revoked' } },
          events: [
            {
              type: STATEMENT_REVOKED,
              data: revokedData({
                ...s,
                revokedAt: now.toISOString(),
                revokedBy: 'system',
                revokeReason: 'learner_erased',
              }),
            },
          ],
        });
      return revokedIds;
    });
    for (const s of all) await this.d.files.remove(s.storageKey);
    return ids.length;
  }
}

const revoked = () => DomainError.conflict('statement_revoked', 'The statement is revoked; its file is not served');
const fileName = (s: StatementSnapshot) => `statement-of-results-${s.programmeCode}-${s.issuedAt.slice(0, 10)}.pdf`;

function eventData(s: StatementSnapshot) {
  return {
    statementId: s.id,
    learnerId: s.learnerId,
    enrolmentId: s.enrolmentId,
    programmeCode: s.programmeCode,
    outcome: s.outcome,
    verificationCode: s.verificationCode,
    sha256: s.sha256,
    issuedAt: s.issuedAt,
  };
}

function revokedData(s: StatementSnapshot) {
  return {
    statementId: s.id,
    learnerId: s.learnerId,
    enrolmentId: s.enrolmentId,
    programmeCode: s.programmeCode,
    reason: s.revokeReason!,
    revokedAt: s.revokedAt!,
  };
}
