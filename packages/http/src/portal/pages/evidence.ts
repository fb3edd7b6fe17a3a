import { DomainError, EVIDENCE_TYPES } from '@fundi/domain';
import type { PortalHttpDeps, PortalRoutes } from '../portal-deps.js';

/** The API's limit for one evidence file; the sniffed type then sets the real one (docs/api.md, "Evidence"). */
const MAX_BYTES = 100 * 1024 * 1024;

/**
 * Evidence from the learner's phone: a new file for a module of one of their open enrolments, or a new version of
 * their own evidence after a revision was asked for. The same use cases as the API's uploads (sniffing, quota,
 * encryption, status `submitted`, `evidence.uploaded` and so the `new_evidence` notification to assessors), with
 * the learner as the actor and always the session's learner id.
 */
export function evidencePages(r: PortalRoutes, d: PortalHttpDeps): void {
  r.upload('/learn/evidence', { field: 'file', maxBytes: MAX_BYTES }, async (ctx, s, fields, file) => {
    const type = (EVIDENCE_TYPES as readonly string[]).includes(fields.evidenceType ?? '')
      ? fields.evidenceType
      : 'portfolio';
    await d.evidence.uploads.upload(
      s.actor,
      { learnerId: s.learner.id, moduleId: fields.moduleId, evidenceType: type },
      file,
      ctx.ip,
    );
    return { redirect: '/learn?uploaded=1' };
  });

  r.upload('/learn/evidence/:id/versions', { field: 'file', maxBytes: MAX_BYTES }, async (ctx, s, _fields, file) => {
    // Another learner's evidence does not exist here: refused before a byte of the file is stored.
    const e = await d.evidence.getEvidence.execute(s.actor, ctx.params.id!).catch(() => null);
    if (!e || e.learnerId !== s.learner.id) {
      file.stream.resume();
      throw DomainError.notFound('evidence', ctx.params.id!);
    }
    await d.evidence.uploads.uploadVersion(s.actor, e.id, file, {}, ctx.ip);
    return { redirect: '/learn?uploaded=1' };
  });
}
