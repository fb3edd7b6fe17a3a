import { declaredBy } from '@fundi/adapters';
import type { RetentionPeriod, RetentionPolicy } from '@fundi/application';
import { registerEvents, type EventDoc, type MadeEventDocs } from '@fundi/http';
import type { CapabilityDeclarations } from './capability.js';

type Declaring = readonly { name: string; declares?: CapabilityDeclarations }[];

/**
 * Every capability's events with their documentation, in the list's order (docs/api.md, "Events and webhooks"); a
 * `data` schema made from the capabilities' offers (the export types) is made once, from the merged declarations.
 */
export function eventDocsOf(caps: Declaring): MadeEventDocs {
  const { hooks } = declaredBy(caps);
  const made = new Map<EventDoc['data'], MadeEventDocs[string]['data']>();
  const make = (data: EventDoc['data']) => {
    if (typeof data !== 'function') return data;
    const schema = made.get(data) ?? data(hooks);
    made.set(data, schema);
    return schema;
  };
  const docs: Record<string, MadeEventDocs[string]> = {};
  for (const c of caps)
    for (const [type, e] of Object.entries(c.declares?.events ?? {})) docs[type] = { ...e, data: make(e.data) };
  return docs;
}

/**
 * The OpenAPI `webhooks` section: every declared event, then each capability's further entries. Built from the
 * merged declarations, so a name declared twice fails here as it does in the container.
 */
export function openApiWebhooksOf(caps: Declaring): (registry: Parameters<typeof registerEvents>[0]) => void {
  const events = eventDocsOf(caps);
  return (registry) => {
    registerEvents(registry, events);
    for (const c of caps) c.declares?.openApiWebhooks?.(registry);
  };
}

/**
 * The retention policy from every capability's declared periods (docs/architecture.md, "Retention"): each kind's
 * days as `days` reads them from its period (its default, or the variable that changes it).
 */
export function retentionPolicyOf(caps: Declaring, days: (period: RetentionPeriod) => number): RetentionPolicy {
  const policy: { -readonly [K in keyof RetentionPolicy]: number } = {};
  for (const c of caps)
    for (const period of c.declares?.retention ?? []) {
      if (policy[period.kind] !== undefined)
        throw new Error(`${c.name} declares the retention of ${period.kind} again`);
      policy[period.kind] = days(period);
    }
  return policy;
}
