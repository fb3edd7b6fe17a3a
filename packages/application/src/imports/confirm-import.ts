import { DomainError } from '@fundi/domain';
import { enqueueJob } from '../jobs/job-definition.js';
import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import { ImportRecord } from '@fundi/domain/imports';
import { CONFIRM_IMPORT, type ImportDeps } from './import-ports.js';
import { importView, type ImportView } from './import-view.js';

/** Only from `validated`, once: any other state is a conflict and nothing is written (docs/api.md, "Imports"). */
export class ConfirmImport {
  constructor(private readonly d: ImportDeps) {}

  async execute(actor: Actor, id: string): Promise<ImportView> {
    const now = this.d.clock.now();
    return this.d.uow.run(async (tx) => {
      const imp = await tx.imports.findById(actor.tenantId, id);
      if (!imp) throw DomainError.notFound('import', id);
      ImportRecord.assertConfirmable(imp);
      const set = { confirmedBy: actor.id, processed: 0 };
      if (!(await tx.imports.transition(imp.tenantId, imp.id, 'validated', 'importing', set)))
        ImportRecord.assertConfirmable({ ...imp, status: 'importing' });
      await enqueueJob(tx.jobs, CONFIRM_IMPORT, { tenantId: imp.tenantId, importId: imp.id }, { now });
      await recordChange(tx, actor, now, { action: 'import.confirmed', resourceType: 'import', resourceId: imp.id });
      return importView({ ...imp, ...set, status: 'importing' });
    });
  }
}
