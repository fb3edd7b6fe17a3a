import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { publicStatement, statementOfCode, type VerificationPorts } from './statement-code.js';
import type { PublicStatementView } from './statement-view.js';

/** `POST /verify/{code}` with a file: whether it is, byte for byte, the PDF issued under the code. */
export class VerifyStatementFile {
  constructor(private readonly d: VerificationPorts) {}

  async execute(
    raw: string,
    file: Readable,
    tenantSlug: string | null = null,
  ): Promise<PublicStatementView & { matches: boolean }> {
    const s = await statementOfCode(this.d, raw, tenantSlug);
    const view = await publicStatement(this.d, s);
    const hash = createHash('sha256');
    for await (const chunk of file) hash.update(chunk as Buffer);
    return { ...view, matches: hash.digest('hex') === s.sha256 };
  }
}
