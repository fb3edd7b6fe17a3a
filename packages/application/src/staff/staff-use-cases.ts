import { CreateStaffUser } from './create-staff-user.js';
import { ListStaffUsers } from './list-staff-users.js';
import { PeekSetPasswordToken } from './peek-set-password-token.js';
import { SetPasswordWithToken } from './set-password-with-token.js';
import { SetStaffStatus } from './set-staff-status.js';
import type { StaffPorts } from './staff-deps.js';
import { staffFieldsOf } from './staff-fields.js';
import { ResolveSession } from './resolve-session.js';
import { SignIn } from './sign-in.js';
import { SignOut } from './sign-out.js';
import { CreateUser } from './create-user.js';
import { GetUser } from './get-user.js';
import { ListUsers } from './list-users.js';
import { SetUserStatus } from './set-user-status.js';
import { UpdateUser } from './update-user.js';

/** Staff users of the dashboard: accounts, passwords and sessions (docs/dashboard.md). */
export function staffUseCases(ports: StaffPorts) {
  const fields = staffFieldsOf(ports.hooks);
  const p = { ...ports, fields };
  return {
    createStaffUser: new CreateStaffUser(p),
    createUser: new CreateUser(p),
    getUser: new GetUser(p),
    listUsers: new ListUsers(p),
    updateUser: new UpdateUser(p),
    setUserStatus: new SetUserStatus(p),
    listStaffUsers: new ListStaffUsers(p),
    setStaffStatus: new SetStaffStatus(p),
    setPassword: new SetPasswordWithToken(p),
    peekSetPassword: new PeekSetPasswordToken(p),
    signIn: new SignIn(p),
    resolveSession: new ResolveSession(p),
    signOut: new SignOut(p),
    /** The fields other capabilities add to a staff user (`staffFields`), in the capability list's order. */
    fields,
  };
}

export type StaffUseCases = ReturnType<typeof staffUseCases>;
