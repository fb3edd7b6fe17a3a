import { useCasesOf } from '@fundi/adapters';
import { staff } from '@fundi/server';
import { required, UsageError } from './args.js';
import { asJson, type Command } from './command.js';

/** Staff users of the dashboard: create one, with a password from stdin or a one-time link to choose it. */
export const USER_COMMANDS: Record<string, Command> = {
  async 'users create'(p, { config, container, out, stdin }) {
    const password = p.flags['password-stdin'] === true ? await readPassword(stdin) : undefined;
    const slug = required(p.flags, 'tenant');
    const created = await useCasesOf(container(), staff).createStaffUser.execute(slug, {
      email: required(p.flags, 'email'),
      name: required(p.flags, 'name'),
      role: required(p.flags, 'role'),
      ...(password === undefined ? {} : { password }),
    });
    const base = config.publicUrl || `http://localhost:${config.port}`;
    const link = created.setPasswordToken
      ? `${base}/dashboard/set-password?token=${encodeURIComponent(created.setPasswordToken)}`
      : null;
    if (asJson(p)) return out.json({ user: created.user, setPasswordLink: link });
    out.line(`Created ${created.user.role} ${created.user.email} (${created.user.id}) in tenant ${slug}.`);
    if (link) out.line(`One-time link to choose a password (valid 72 hours, shown only now):\n  ${link}`);
    else out.line(`Sign in at ${base}/dashboard/sign-in?tenant=${encodeURIComponent(slug)}`);
  },
};

/** The whole of stdin, without the final line break (`echo secret | fundi users create ... --password-stdin`). */
async function readPassword(stdin: AsyncIterable<Uint8Array | string>): Promise<string> {
  const chunks: Uint8Array[] = [];
  for await (const c of stdin) chunks.push(typeof c === 'string' ? Buffer.from(c, 'utf8') : c);
  const text = Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
  if (!text) throw new UsageError('--password-stdin: no password on stdin');
  return text;
}
