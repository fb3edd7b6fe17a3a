import { describe, expect, it } from 'vitest';
import { importProgress } from './import-progress.js';

describe('import progress on the import page', () => {
  it('shows rows written of the total while importing, with what comes next', () => {
    const h = importProgress({ status: 'importing', progress: { processed: 2500, total: 10000 } }).value;
    expect(h).toContain('<progress id="imp-progress" max="10000" value="2500"></progress>');
    expect(h).toContain('2500 of 10000 rows (25%).');
    expect(h).toContain('Next: the learners and records appear');
  });

  it('moves an indeterminate bar and a count while the file is checked and its length is unknown', () => {
    const h = importProgress({ status: 'validating', progress: { processed: 700, total: 0 }, dryRun: true }).value;
    expect(h).toContain('<progress id="imp-progress"></progress>');
    expect(h).toContain('700 rows read so far.');
    expect(h).toContain('then you confirm the import');
    const auto = importProgress({ status: 'validating', progress: { processed: 1, total: 0 }, dryRun: false }).value;
    expect(auto).toContain('written straight away');
  });
});
