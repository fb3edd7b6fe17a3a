import { sha256 } from './set-password-token.js';
import type { StaffDeps } from './staff-deps.js';

/** Ends the session (idempotent); expired sessions are swept at the same time. */
export class SignOut {
  constructor(private readonly deps: StaffDeps) {}

  async execute(token: string): Promise<void> {
    await this.deps.repos.dashboardSessions.delete(sha256(token));
    await this.deps.repos.dashboardSessions.deleteExpired(this.deps.clock.now().toISOString());
  }
}
