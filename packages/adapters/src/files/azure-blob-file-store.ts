import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';
import type { ContainerClient } from '@azure/storage-blob';
import { DomainError, assertFileKey, type FileStore } from '@fundi/domain';

/**
 * Files as block blobs in one Azure Storage container (hosted scale-out). Uploads stream in 4 MB blocks (two in
 * flight), downloads stream with an offset and count for ranges: memory stays bounded whatever the file size.
 */
export class AzureBlobFileStore implements FileStore {
  private readonly container: ContainerClient;
  private ready: Promise<unknown> | null = null;

  constructor(connectionString: string, containerName: string) {
    // Loaded only when files go to Azure: the SDK costs the embedded default about 10 MB of memory otherwise.
    const { BlobServiceClient } = createRequire(import.meta.url)(
      '@azure/storage-blob',
    ) as typeof import('@azure/storage-blob');
    this.container = BlobServiceClient.fromConnectionString(connectionString).getContainerClient(containerName);
  }

  private ensure(): Promise<unknown> {
    this.ready ??= this.container.createIfNotExists().catch((e) => {
      this.ready = null;
      throw e;
    });
    return this.ready;
  }

  async put(key: string, source: Readable): Promise<{ size: number }> {
    assertFileKey(key);
    await this.ensure();
    let size = 0;
    source.on('data', (c: Buffer) => {
      size += c.length;
    });
    await this.container.getBlockBlobClient(key).uploadStream(source, 4 * 1024 * 1024, 2);
    return { size };
  }

  async get(key: string, range?: { start: number; end: number }): Promise<Readable> {
    assertFileKey(key);
    await this.ensure();
    try {
      const r = await this.container
        .getBlobClient(key)
        .download(range?.start ?? 0, range ? range.end - range.start + 1 : undefined);
      return r.readableStreamBody as Readable;
    } catch (e) {
      if ((e as { statusCode?: number }).statusCode === 404) throw DomainError.notFound('file', key);
      throw e;
    }
  }

  async stat(key: string): Promise<{ size: number } | null> {
    assertFileKey(key);
    await this.ensure();
    try {
      const p = await this.container.getBlobClient(key).getProperties();
      return { size: p.contentLength ?? 0 };
    } catch (e) {
      if ((e as { statusCode?: number }).statusCode === 404) return null;
      throw e;
    }
  }

  /**
   * Nothing to remove: a `put` stages 4 MB blocks and commits their list at the end, and what a failed or killed
   * upload staged is uncommitted blocks, which no read sees (the key stays absent, or keeps its previous object) and
   * which Azure itself deletes 7 days after the last block was staged. Discarding them sooner would mean committing a
   * block list for the key, which also discards the staged blocks of another upload of the same key still under way
   * (an export written again by a second worker), and for a new key makes an empty object visible for a moment.
   */
  async removeAbandoned(): Promise<number> {
    return 0;
  }

  async delete(key: string): Promise<void> {
    assertFileKey(key);
    await this.ensure();
    await this.container.getBlobClient(key).deleteIfExists();
  }
}
