import { join } from 'node:path';
import type { FileStore } from '@fundi/domain';
import { MemoryFileStore } from '@fundi/memory';
import { AzureBlobFileStore } from './azure-blob-file-store.js';
import { LocalDiskFileStore } from './local-disk-file-store.js';

/** Where files live: a directory (the embedded default), an Azure Storage container, or memory (tests). */
export type FileStoreChoice =
  | { kind: 'local'; dir: string }
  | { kind: 'azure'; connectionString: string; container: string }
  | { kind: 'memory' };

export function openFileStore(choice: FileStoreChoice): FileStore {
  switch (choice.kind) {
    case 'local':
      return new LocalDiskFileStore(choice.dir);
    case 'azure':
      return new AzureBlobFileStore(choice.connectionString, choice.container);
    case 'memory':
      return new MemoryFileStore();
  }
}

/** The embedded default: files under the data directory. */
export function defaultFileStore(dataDir: string): FileStoreChoice {
  return { kind: 'local', dir: join(dataDir, 'files') };
}
