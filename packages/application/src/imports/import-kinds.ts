import { DomainError } from '@fundi/domain';
import type { AnyKind } from './import-kind.js';

/**
 * Every import kind the capabilities offer (`offers.importKinds`), by its type in the capability list's order, and
 * the tables they grow. A type offered twice fails when the service starts.
 */
export class ImportKinds {
  private readonly makers = new Map<string, () => AnyKind>();
  /** The tables the kinds grow: their planner statistics are refreshed before a walk and after each batch. */
  readonly tables: readonly string[];

  constructor(offered: readonly (readonly (() => AnyKind)[])[]) {
    const tables = new Set<string>();
    for (const make of offered.flat()) {
      const kind = make();
      if (this.makers.has(kind.type)) throw new Error(`The import kind ${kind.type} is offered twice`);
      this.makers.set(kind.type, make);
      for (const t of kind.tables ?? []) tables.add(t);
    }
    this.tables = [...tables];
  }

  /** The types, in the order offered. */
  get types(): string[] {
    return [...this.makers.keys()];
  }

  /** A fresh kind of `type` (kinds cache what they look up, per run); a type nobody offers is refused. */
  make(type: string): AnyKind {
    const make = this.makers.get(type);
    if (!make) throw DomainError.invalid('type', `must be one of ${this.types.join(', ')}`);
    return make();
  }
}
