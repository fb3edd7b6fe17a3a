import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root (this file is apps/server/src/testing/). */
export const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/**
 * The folder and file names of each capability (docs/architecture.md, "A capability's anatomy"): a file is the
 * capability's when a folder on its path, or the start of its name (`evidence-routes.ts`), is one of them.
 */
export const STEMS: Record<string, readonly string[]> = {
  platform: ['platform'],
  tenants: ['tenants', 'tenant', 'caller'],
  learners: ['learners', 'learner'],
  training: ['training', 'programmes', 'programme', 'enrolments', 'enrolment', 'assessments', 'assessment'],
  webhooks: ['webhooks', 'webhook'],
  evidence: ['evidence'],
  hrSync: ['hr-sync'],
  imports: ['imports', 'import'],
  exports: ['exports', 'export'],
  staff: ['staff', 'users', 'user'],
  notifications: ['notifications', 'notification'],
  audit: ['audit'],
  statements: ['statements', 'statement'],
  portal: ['portal'],
  logbooks: ['logbooks', 'logbook'],
};

/** Whether `file` (relative to the root) is one of `capability`'s files. */
export function ownedBy(file: string, capability: string): boolean {
  const stems = STEMS[capability] ?? [];
  const base = basename(file);
  const folders = file.split('/').slice(0, -1);
  return folders.some((f) => stems.includes(f)) || stems.some((s) => base.startsWith(`${s}-`) || base === `${s}.ts`);
}

/** Every source file that is not a test, relative to the root, with its text. */
export function sourceFiles(): { file: string; text: string }[] {
  const out: { file: string; text: string }[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.ts') && !name.endsWith('.test.ts'))
        out.push({ file: relative(ROOT, path), text: readFileSync(path, 'utf8') });
    }
  };
  for (const top of ['packages', 'apps']) walk(join(ROOT, top));
  return out;
}
