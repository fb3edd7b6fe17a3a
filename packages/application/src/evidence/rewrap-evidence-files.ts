import type { EvidencePorts } from './evidence-ports.js';

/**
 * After a master-key rotation: wraps every stored version's data key under the current master key, without
 * rewriting the encrypted content (docs/architecture.md, "Files"). Returns how many were re-wrapped and seen.
 */
export class RewrapEvidenceFiles {
  constructor(private readonly d: EvidencePorts) {}

  async execute(batch = 500): Promise<{ rewrapped: number; files: number }> {
    let after: string | null = null;
    let rewrapped = 0;
    let files = 0;
    for (;;) {
      const keys = await this.d.repos.evidence.storageKeys(after, batch);
      for (const key of keys) {
        if (await this.d.files.rewrap(key)) rewrapped++;
        files++;
      }
      if (keys.length < batch) return { rewrapped, files };
      after = keys[keys.length - 1]!;
    }
  }
}
