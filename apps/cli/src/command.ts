import type { Container } from 'inversify';
import type { Config } from '@fundi/server';
import type { Parsed } from './args.js';

/** Where a command writes: JSON with `--json`, lines otherwise. */
export interface Output {
  json(value: unknown): void;
  line(text: string): void;
}

/** One operator command (`fundi <group> <verb>`); the container is built only when a command asks for it. */
export type Command = (
  p: Parsed,
  ctx: { config: Config; container: () => Container; out: Output; stdin: AsyncIterable<Uint8Array | string> },
) => Promise<void>;

export const asJson = (p: Parsed) => p.flags.json === true;
