import { DomainError, type JobOperatorResult, type JobState } from '@fundi/domain';
import { jobView, type JobView } from './job-view.js';

const WHY_NOT: Record<'retry' | 'cancel', Partial<Record<JobState, string>>> = {
  retry: {
    queued: 'it is queued already and will run when due',
    running: 'it is running; retry it if it fails',
    done: 'it succeeded',
    cancelled: 'it was cancelled',
  },
  cancel: {
    running:
      'it is running, and a running job is never stopped half-way; wait for it to finish or fail (then cancel it), or stop its worker',
    done: 'it has finished',
    cancelled: 'it was cancelled already',
  },
};

/** The job after an operator's change, or a conflict that says plainly why its state refused the change. */
export function operatorAnswer(id: string, action: 'retry' | 'cancel', r: JobOperatorResult, now: Date): JobView {
  if (r.changed) return jobView(r.job, now);
  if (!r.job || !r.state) throw DomainError.notFound('job', id);
  throw DomainError.conflict(
    `job_not_${action === 'retry' ? 'retryable' : 'cancellable'}`,
    `Job ${id} cannot be ${action === 'retry' ? 'retried' : 'cancelled'}: ${WHY_NOT[action][r.state] ?? r.state}.`,
    [],
    { state: r.state },
  );
}
