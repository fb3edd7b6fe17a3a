import type { ExportPorts } from './export-ports.js';
import { GetExport } from './get-export.js';
import { GetRegulatorSettings } from './get-regulator-settings.js';
import { IssueExportDownloadUrl } from './issue-export-download-url.js';
import { ListExports } from './list-exports.js';
import { OpenExportDownload } from './open-export-download.js';
import { PurgeExpiredExports } from './purge-expired-exports.js';
import { PutRegulatorSettings } from './put-regulator-settings.js';
import { RequestExport } from './request-export.js';
import { RequestRegulatorFile } from './request-regulator-file.js';
import { WriteExport } from './write-export.js';

/** Exports and regulator files (docs/api.md, "Exports" and "Regulator files"): one use case each. */
export interface ExportUseCases {
  request: RequestExport;
  requestRegulator: RequestRegulatorFile;
  get: GetExport;
  list: ListExports;
  /** The worker's part (the `exports.run` job). */
  write: WriteExport;
  downloadUrl: IssueExportDownloadUrl;
  openDownload: OpenExportDownload;
  /** The recurring `exports.purge_expired` job. */
  purgeExpired: PurgeExpiredExports;
  getSettings: GetRegulatorSettings;
  putSettings: PutRegulatorSettings;
}

/** The export use cases over their ports (docs/architecture.md, "Capabilities"). */
export function exportUseCases(p: ExportPorts): ExportUseCases {
  const request = new RequestExport(p);
  return {
    request,
    requestRegulator: new RequestRegulatorFile(p, request),
    get: new GetExport(p),
    list: new ListExports(p),
    write: new WriteExport(p),
    downloadUrl: new IssueExportDownloadUrl(p),
    openDownload: new OpenExportDownload(p),
    purgeExpired: new PurgeExpiredExports(p),
    getSettings: new GetRegulatorSettings(p),
    putSettings: new PutRegulatorSettings(p),
  };
}
