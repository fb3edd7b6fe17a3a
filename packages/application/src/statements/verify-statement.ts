import { publicStatement, statementOfCode, type VerificationPorts } from './statement-code.js';
import type { PublicStatementView } from './statement-view.js';

/** `GET /verify/{code}`, public and without a key: valid or revoked, nothing personal beyond the holder's name. */
export class VerifyStatement {
  constructor(private readonly d: VerificationPorts) {}

  async execute(raw: string, tenantSlug: string | null = null): Promise<PublicStatementView> {
    return publicStatement(this.d, await statementOfCode(this.d, raw, tenantSlug));
  }
}
