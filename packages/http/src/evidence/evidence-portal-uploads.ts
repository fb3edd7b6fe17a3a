import type { Readable } from 'node:stream';
import type { UploadAttempt } from '@fundi/application/evidence';
import type { PortalSessionContext } from '@fundi/application/portal';
import { DomainError } from '@fundi/domain';
import { EVIDENCE_TYPES } from '@fundi/domain/evidence';
import type { Answer } from '../dashboard/dashboard-deps.js';
import type { PortalHttpDeps, PortalRoutes } from '../portal/portal-deps.js';

/** The API's limit for one evidence file; the sniffed type then sets the real one (docs/api.md, "Evidence"). */
const MAX_BYTES = 100 * 1024 * 1024;

/**
 * The evidence's pages of the learner portal (docs/dashboard.md, "Learner portal"): evidence from the learner's
 * phone, a new file for a module of one of their open enrolments, or a new version of their own evidence after a
 * revision was asked for. The same use cases as the API's uploads (sniffing, quota,
 * encryption, status `submitted`, `evidence.uploaded` and so the `new_evidence` notification to assessors), with
 * the learner as the actor and always the session's learner id. Each form carries an upload key, so a retried
 * upload (the portal's script retries a failed one) stores its file once.
 */
export function evidencePortalPages(r: PortalRoutes, d: PortalHttpDeps): void {
  /**
   * Runs an upload once per form key (docs/dashboard.md, "Learner portal"): a retry of an attempt that was stored
   * reads nothing and answers as it did; a failed attempt gives the key back for the next.
   */
  const once = async (
    s: PortalSessionContext,
    key: string | undefined,
    file: { stream: Readable },
    store: () => Promise<{ id: string }>,
  ): Promise<Answer> => {
    const tenantId = s.actor.tenantId;
    let attempt: UploadAttempt;
    try {
      attempt = await d.evidence.uploadKeys.begin(tenantId, s.learner.id, key);
    } catch (e) {
      file.stream.resume();
      throw e;
    }
    if (attempt.kind === 'done') {
      file.stream.resume();
      return { redirect: '/learn?uploaded=1' };
    }
    const claimed = attempt.key;
    try {
      const stored = await store();
      if (claimed) await d.evidence.uploadKeys.done(tenantId, claimed, stored.id);
    } catch (e) {
      if (claimed) await d.evidence.uploadKeys.failed(tenantId, claimed);
      throw e;
    }
    return { redirect: '/learn?uploaded=1' };
  };

  r.upload('/learn/evidence', { field: 'file', maxBytes: MAX_BYTES }, async (ctx, s, fields, file) => {
    const type = (EVIDENCE_TYPES as readonly string[]).includes(fields.evidenceType ?? '')
      ? fields.evidenceType
      : 'portfolio';
    return once(s, fields.uploadKey, file, () =>
      d.evidence.uploads.upload(
        s.actor,
        { learnerId: s.learner.id, moduleId: fields.moduleId, evidenceType: type },
        file,
        ctx.ip,
      ),
    );
  });

  r.upload('/learn/evidence/:id/versions', { field: 'file', maxBytes: MAX_BYTES }, async (ctx, s, fields, file) => {
    // Another learner's evidence does not exist here: refused before a byte of the file is stored.
    const e = await d.evidence.getEvidence.execute(s.actor, ctx.params.id!).catch(() => null);
    if (!e || e.learnerId !== s.learner.id) {
      file.stream.resume();
      throw DomainError.notFound('evidence', ctx.params.id!);
    }
    return once(s, fields.uploadKey, file, () => d.evidence.uploads.uploadVersion(s.actor, e.id, file, {}, ctx.ip));
  });
}
