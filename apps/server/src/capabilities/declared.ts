import { declaredBy } from '@fundi/adapters';
import { registerEvents, type EventDocs } from '@fundi/http';
import type { CapabilityDeclarations } from './capability.js';

type Declaring = readonly { name: string; declares?: CapabilityDeclarations }[];

/** Every capability's events with their documentation, in the list's order (docs/api.md, "Events and webhooks"). */
export function eventDocsOf(caps: Declaring): EventDocs {
  return Object.assign({}, ...caps.map((c) => c.declares?.events ?? {}));
}

/**
 * The OpenAPI `webhooks` section: every declared event, then each capability's further entries. Built from the
 * merged declarations, so a name declared twice fails here as it does in the container.
 */
export function openApiWebhooksOf(caps: Declaring): (registry: Parameters<typeof registerEvents>[0]) => void {
  declaredBy(caps);
  const events = eventDocsOf(caps);
  return (registry) => {
    registerEvents(registry, events);
    for (const c of caps) c.declares?.openApiWebhooks?.(registry);
  };
}
