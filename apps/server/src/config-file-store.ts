import { defaultFileStore, type FileStoreChoice } from '@fundi/adapters';
import { ConfigError } from './config-values.js';

/** Where files go: FUNDI_FILE_STORE=local (under the data dir, the default) or azure (its connection and container). */
export function fileStore(env: NodeJS.ProcessEnv, dataDir: string): FileStoreChoice {
  const kind = env.FUNDI_FILE_STORE || 'local';
  if (kind === 'local') return defaultFileStore(dataDir);
  if (kind !== 'azure') throw new ConfigError('FUNDI_FILE_STORE', `must be local or azure (got "${kind}")`);
  const connectionString = env.AZURE_STORAGE_CONNECTION_STRING ?? '';
  if (!/AccountName=|BlobEndpoint=|SharedAccessSignature=|UseDevelopmentStorage=true/i.test(connectionString)) {
    throw new ConfigError(
      'AZURE_STORAGE_CONNECTION_STRING',
      'must be an Azure Storage connection string when FUNDI_FILE_STORE=azure',
    );
  }
  const container = env.AZURE_STORAGE_CONTAINER || 'fundi-files';
  if (!/^[a-z0-9](?!.*--)[a-z0-9-]{1,61}[a-z0-9]$/.test(container)) {
    throw new ConfigError(
      'AZURE_STORAGE_CONTAINER',
      `must be 3-63 lowercase letters, digits and single hyphens (got "${container}")`,
    );
  }
  return { kind: 'azure', connectionString, container };
}
