import type { JobDefinition, UnitOfWork } from '@fundi/application';
import { newId, type Clock, type PlatformRepos } from '@fundi/domain';

/** The next occurrence of a recurring job (or one `at`), once per time whichever worker asks (its key names it). */
export async function scheduleNext(
  deps: { uow: UnitOfWork<Pick<PlatformRepos, 'jobs'>>; clock: Clock },
  def: JobDefinition<unknown>,
  after: Date,
  at?: Date,
): Promise<void> {
  const { recurring } = def;
  if (!recurring) return;
  const dueAt = at ?? recurring.next(after);
  const now = deps.clock.now();
  await deps.uow.run((tx) =>
    tx.jobs.enqueue({
      id: newId('job', now.getTime()),
      kind: def.kind,
      lane: def.lane,
      priority: def.priority ?? 'normal',
      payload: recurring.payload,
      dueAt: dueAt.toISOString(),
      maxAttempts: def.maxAttempts ?? 10,
      idempotencyKey: `recurring:${def.kind}@${dueAt.toISOString()}`,
      createdAt: now.toISOString(),
    }),
  );
}
