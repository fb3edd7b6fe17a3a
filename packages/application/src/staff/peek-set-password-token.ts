import { sha256 } from './set-password-token.js';
import type { StaffDeps } from './staff-deps.js';
import { staffView, type StaffView } from './staff-view.js';

/** For the set-password form: whose link it is, while the link is still valid. */
export class PeekSetPasswordToken {
  constructor(private readonly deps: Pick<StaffDeps, 'repos' | 'clock'>) {}

  /** The user a still-valid token belongs to (to greet them on the form), or null. */
  async execute(token: string): Promise<StaffView | null> {
    const u = await this.deps.repos.staffCredentials.findBySetPasswordToken(sha256(token));
    return u && u.setPasswordExpiresAt! > this.deps.clock.now().toISOString() ? staffView(u) : null;
  }
}
