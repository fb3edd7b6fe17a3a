import type { StatementPorts } from './statement-ports.js';

/** The address statements' links start with: the configured public URL, else the request's origin. */
export const statementBaseUrl = (d: Pick<StatementPorts, 'settings'>, origin?: string) =>
  (d.settings.publicUrl || origin || '').replace(/\/+$/, '');
