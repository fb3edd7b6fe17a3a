import { DomainError } from '@fundi/domain';
import type { OfferedHooks } from '../common/hooks.js';
import { personalTriggers, type TemplateDefinition, type TriggerSource, type Triggers } from '../common/triggers.js';
import { OWN_TRIGGERS } from './built-in-templates.js';
import type { Vocabulary } from './template-variables.js';

/**
 * Every built-in template, variable and trigger source: the notifications' own and every capability's offer
 * through the `triggers` hook (docs/architecture.md, "A capability's anatomy"). Templates are listed by their
 * `order` (the template list, the switches, the staff preferences, error messages); a key, order or variable
 * offered twice is a programming error, thrown when the catalogue is first made.
 */
export class TriggerCatalogue implements Vocabulary {
  readonly templates: readonly TemplateDefinition[];
  /** Every trigger's switch key: the template key it sends, in the templates' order. */
  readonly keys: readonly string[];
  /** The staff and admin triggers a staff user may turn off for themselves, in order. */
  readonly staffKeys: readonly string[];
  private readonly byKey: ReadonlyMap<string, TemplateDefinition>;
  private readonly names = new Map<string, string>();
  private readonly byEvent = new Map<string, TriggerSource[]>();

  constructor(offers: readonly Triggers[]) {
    const templates = offers.flatMap((o) => o.templates);
    this.templates = [...templates].sort((a, b) => a.order - b.order);
    this.keys = this.templates.map((t) => t.key);
    this.staffKeys = personalTriggers(offers);
    this.byKey = new Map(this.templates.map((t) => [t.key, t]));
    if (this.byKey.size !== templates.length) throw new Error(`A template key is offered twice: ${this.keys}`);
    if (new Set(templates.map((t) => t.order)).size !== templates.length)
      throw new Error(`Two templates have the same order: ${this.templates.map((t) => `${t.key} ${t.order}`)}`);
    for (const o of offers)
      for (const [name, v] of Object.entries<{ alias?: string }>(o.variables)) {
        for (const n of [name, ...(v.alias ? [v.alias] : [])]) {
          if (this.names.has(n)) throw new Error(`The template variable or alias ${n} is offered twice`);
          this.names.set(n, name);
        }
      }
    for (const s of offers.flatMap((o) => o.sources)) {
      const list = this.byEvent.get(s.event);
      if (list) list.push(s);
      else this.byEvent.set(s.event, [s]);
    }
  }

  /** The built-in template for `key`; DomainError('invalid') on `template` for a key that is none. */
  template(key: string): TemplateDefinition {
    const t = this.byKey.get(key);
    if (!t)
      throw DomainError.invalid('template', `unknown template; one of ${this.keys.join(', ')}`, 'unknown_template');
    return t;
  }

  isVariable(name: string): boolean {
    return this.names.get(name) === name;
  }

  variableOf(name: string): string | undefined {
    return this.names.get(name);
  }

  /** The capabilities' sources of an event (the notifications' own are in `trigger-sources.ts`). */
  sourcesOf(event: string): readonly TriggerSource[] {
    return this.byEvent.get(event) ?? [];
  }

  /** The events the capabilities' sources follow. */
  get events(): readonly string[] {
    return [...this.byEvent.keys()];
  }
}

const made = new WeakMap<readonly Triggers[], TriggerCatalogue>();
const NONE: readonly Triggers[] = [];

/**
 * The catalogue of the service's offers (`hooks.triggers`), made once per list of offers; without hooks, the
 * notifications' own.
 */
export function catalogueOf(d: { hooks?: Pick<OfferedHooks, 'triggers'> }): TriggerCatalogue {
  const offers = d.hooks?.triggers ?? NONE;
  let c = made.get(offers);
  // The service's list holds the notifications' own (their module offers them like any other); a test's may not.
  if (!c)
    made.set(offers, (c = new TriggerCatalogue(offers.includes(OWN_TRIGGERS) ? offers : [OWN_TRIGGERS, ...offers])));
  return c;
}
