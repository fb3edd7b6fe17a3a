import {
  CreateStaffUser,
  ListStaffUsers,
  SetPasswordWithToken,
  SetStaffStatus,
  type StaffDeps,
} from './staff-accounts.js';
import { ResolveSession, SignIn, SignOut } from './sessions.js';
import { StaffDirectory } from './staff-directory.js';

export type StaffPorts = StaffDeps;

/** Staff users of the dashboard: accounts, passwords and sessions (docs/dashboard.md). */
export function staffUseCases(p: StaffPorts) {
  return {
    createStaffUser: new CreateStaffUser(p),
    directory: new StaffDirectory(p),
    listStaffUsers: new ListStaffUsers(p),
    setStaffStatus: new SetStaffStatus(p),
    setPassword: new SetPasswordWithToken(p),
    signIn: new SignIn(p),
    resolveSession: new ResolveSession(p),
    signOut: new SignOut(p),
  };
}

export type StaffUseCases = ReturnType<typeof staffUseCases>;
