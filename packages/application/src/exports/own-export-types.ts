import { ENROLMENT_STATUSES } from '@fundi/domain/training';
import type { ExportTypeDef } from './export-type.js';

const enrolled = { values: ENROLMENT_STATUSES, described: 'Enrolment status' };

/**
 * The files the exports capability writes itself (docs/api.md, "Exports", "Regulator files"): the full ZIP of
 * every type that names its file in it, and the regulator files over learners and their enrolments.
 */
export const OWN_EXPORT_TYPES = [
  { name: 'full', format: 'zip', label: 'Everything (ZIP of every CSV)' },
  { name: 'qcto01', format: 'txt', label: 'QCTO01 learner file', status: enrolled, describedAs: 'qcto' },
  { name: 'qcto02', format: 'txt', label: 'QCTO02 achievement file', status: enrolled, describedAs: 'qcto' },
  { name: 'atr', format: 'zip', label: 'Annual training report (ZIP)', status: enrolled },
  { name: 'wsp', format: 'zip', label: 'Workplace skills plan (ZIP)', status: enrolled },
] as const satisfies readonly ExportTypeDef[];

/** The name of a file the exports capability writes itself. */
export type OwnExportType = (typeof OWN_EXPORT_TYPES)[number]['name'];

/** Every type as one list, in the capability list's order; a name offered twice fails when the service starts. */
export function exportTypesOf(offered: readonly (readonly ExportTypeDef[])[]): readonly ExportTypeDef[] {
  const all = offered.flat();
  const seen = new Set<string>();
  for (const t of all) {
    if (seen.has(t.name)) throw new Error(`The export type ${t.name} is offered twice`);
    seen.add(t.name);
  }
  return all;
}
