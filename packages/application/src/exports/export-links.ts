import { DomainError } from '@fundi/domain';
import { emptyRegulatorSettings, type ExportSnapshot, type RegulatorSettings } from '@fundi/domain/exports';
import type { ExportPorts } from './export-ports.js';

/** How long a signed download URL lives (docs/api.md, "Exports"). */
const SIGNED_URL_SECONDS = 3600;
/** The signer's purpose for export downloads: a token signed for another purpose does not open an export. */
export const DOWNLOAD = 'export-download';

/** A signed URL under the public URL, else `origin` (a webhook receiver needs it absolute); else relative. */
export function signedDownload(
  d: Pick<ExportPorts, 'signer' | 'settings'>,
  e: ExportSnapshot,
  now: Date,
  origin?: string,
): { downloadUrl: string; expiresAt: string } {
  const expiresAt = new Date(now.getTime() + SIGNED_URL_SECONDS * 1000);
  const token = d.signer.sign(`${e.tenantId}|${e.id}|${expiresAt.getTime()}`, DOWNLOAD);
  const base = (d.settings.publicUrl || origin || '').replace(/\/+$/, '');
  return { downloadUrl: `${base}/api/v1/files/exports/${token}`, expiresAt: expiresAt.toISOString() };
}

/** 409 while the export is not ready or once its file was purged. */
export function assertDownloadable(e: ExportSnapshot): void {
  if (e.purgedAt) throw DomainError.conflict('export_purged', 'The export file was purged; request a new export');
  if (e.status !== 'ready')
    throw DomainError.conflict('export_not_ready', `The export is ${e.status}; its file is not available`);
}

/** A tenant's regulator settings, every field unset (`null`) until it is set. */
export async function regulatorSettingsOf(repos: ExportPorts['repos'], tenantId: string): Promise<RegulatorSettings> {
  return { ...emptyRegulatorSettings(), ...((await repos.regulatorSettings.get(tenantId)) ?? {}) };
}
