import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { DomainError } from '@fundi/domain';
import { normaliseVerificationCode, type StatementSnapshot } from '@fundi/domain/statements';
import type { StatementPorts } from './statement-ports.js';
import { publicView, type PublicStatementView } from './statement-view.js';

/** Largest file `POST /verify/{code}` reads: a statement is a few kilobytes. */
export const VERIFY_MAX_BYTES = 5 * 1024 * 1024;

const unknownCode = () =>
  new DomainError('not_found', 'statement_not_found', 'No statement has this verification code');

/** The public checks of a statement, by its verification code: no key, nothing personal beyond the holder. */
export class StatementVerification {
  constructor(private readonly d: Pick<StatementPorts, 'repos'>) {}

  /** The statement of the code; under Form B's prefix (`tenantSlug`) only the tenant's own. */
  private async find(raw: string, tenantSlug: string | null): Promise<StatementSnapshot> {
    const code = normaliseVerificationCode(raw);
    const s = code ? await this.d.repos.statements.findByCode(code) : null;
    if (!s) throw unknownCode();
    if (tenantSlug !== null && (await this.d.repos.tenants.findById(s.tenantId))?.slug !== tenantSlug)
      throw unknownCode();
    return s;
  }

  /** `GET /verify/{code}`: valid or revoked, with the holder's initials and surname, the programme and outcome. */
  async check(raw: string, tenantSlug: string | null = null): Promise<PublicStatementView> {
    const s = await this.find(raw, tenantSlug);
    const erased = !(await this.d.repos.learners.findById(s.tenantId, s.learnerId));
    return publicView(s, erased);
  }

  /** `POST /verify/{code}` with a file: whether it is, byte for byte, the PDF issued under the code. */
  async checkFile(
    raw: string,
    file: Readable,
    tenantSlug: string | null = null,
  ): Promise<PublicStatementView & { matches: boolean }> {
    const view = await this.check(raw, tenantSlug);
    const s = await this.find(raw, tenantSlug);
    const hash = createHash('sha256');
    for await (const chunk of file) hash.update(chunk as Buffer);
    return { ...view, matches: hash.digest('hex') === s.sha256 };
  }
}
