import type { StorageMaintenance } from '../common/ports.js';

/** The job an erasure schedules: the database's old versions of the erased rows are scrubbed (docs/api.md, "Erasure"). */
export class ScrubAfterErasure {
  constructor(private readonly deps: { maintenance: StorageMaintenance }) {}

  execute(): Promise<void> {
    return this.deps.maintenance.scrubAfterErasure();
  }
}
