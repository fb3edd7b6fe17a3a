import type { Page, PageRequest } from '@fundi/domain';
import type { ImportStatus } from '@fundi/domain/imports';
import type { Actor } from '../common/actor.js';
import type { ImportDeps } from './import-ports.js';
import { importView, type ImportView } from './import-view.js';

export class ListImports {
  constructor(private readonly d: ImportDeps) {}

  execute(
    actor: Actor,
    filter: { status?: ImportStatus; type?: string },
    page: PageRequest,
  ): Promise<Page<ImportView>> {
    return this.d.repos.imports
      .list(actor.tenantId, filter, page)
      .then((p) => ({ ...p, items: p.items.map(importView) }));
  }
}
