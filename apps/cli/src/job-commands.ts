import { useCasesOf } from '@fundi/adapters';
import type { JobView } from '@fundi/application';
import { platform } from '@fundi/server';
import { type Parsed, UsageError } from './args.js';
import { asJson, type Command, type Output } from './command.js';

/** Background jobs: list, show, retry, cancel (docs/architecture.md, "Background jobs"). */
export const JOB_COMMANDS: Record<string, Command> = {
  async 'jobs list'(p, { container, out }) {
    const limit = p.flags.limit;
    const jobs = await useCasesOf(container(), platform).listJobs.execute({
      state: p.flags.state as string | undefined,
      kind: p.flags.kind as string | undefined,
      tenant: p.flags.tenant as string | undefined,
      ...(limit === undefined ? {} : { limit: /^\d+$/.test(String(limit)) ? Number(limit) : Number.NaN }),
    });
    if (asJson(p)) return out.json(jobs);
    if (jobs.length === 0) return out.line('No jobs match.');
    for (const j of jobs) out.line(jobLine(j));
  },

  async 'jobs show'(p, { container, out }) {
    const job = await useCasesOf(container(), platform).showJob.execute(jobId(p, 'show'));
    if (asJson(p)) return out.json(job);
    printJob(out, job);
  },

  async 'jobs retry'(p, { container, out }) {
    const job = await useCasesOf(container(), platform).retryJob.execute(jobId(p, 'retry'));
    if (asJson(p)) return out.json(job);
    out.line(`Job ${job.id} (${job.kind}) is due now with its attempts reset; a worker takes it at its next look.`);
  },

  async 'jobs cancel'(p, { container, out }) {
    const job = await useCasesOf(container(), platform).cancelJob.execute(jobId(p, 'cancel'));
    if (asJson(p)) return out.json(job);
    out.line(`Job ${job.id} (${job.kind}) is cancelled: it will not run again.`);
  },
};

const jobId = (p: Parsed, verb: string) => {
  const id = p.command[2];
  if (!id) throw new UsageError(`jobs ${verb} needs the job id: jobs ${verb} <jobId>`);
  return id;
};

const jobLine = (j: JobView) =>
  `${j.id}  ${j.state.padEnd(9)} ${j.kind.padEnd(34)} ${`${j.attempts}/${j.maxAttempts}`.padEnd(6)} ${j.doneAt ?? j.dueAt}${j.lastError ? `  ${j.lastError.split('\n')[0]!.slice(0, 80)}` : ''}`;

function printJob(out: Output, j: JobView): void {
  const rows: [string, unknown][] = [
    ['id', j.id],
    ['kind', `${j.kind} (${j.lane} lane, ${j.priority})`],
    ['state', j.state],
    ['tenant', j.tenantId ?? '(none)'],
    ['attempts', `${j.attempts} of ${j.maxAttempts}`],
    ['created', j.createdAt],
    ['due', j.dueAt],
    ['claimed', j.claimedAt ? `${j.claimedAt} by ${j.leaseOwner ?? '(released)'}` : '(never)'],
    ['lease until', j.leaseUntil ?? '(none)'],
    ['finished', j.doneAt ?? '(not yet)'],
    ['cancelled', j.cancelledAt ?? '(no)'],
    [
      'progress',
      j.progress ? `${j.progress.processed}${j.progress.total === null ? '' : ` of ${j.progress.total}`}` : '(none)',
    ],
    ['last error', j.lastError ?? '(none)'],
  ];
  for (const [k, v] of rows) out.line(`${k.padEnd(12)} ${v}`);
  if (j.payload !== undefined) out.line(`payload      ${JSON.stringify(j.payload)}`);
}
