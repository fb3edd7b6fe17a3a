import { platformStorage } from '@fundi/adapters';
import { capability } from './capability.js';

/** The audit log, outbox and jobs every other capability writes through; no use cases or routes of its own. */
export const platform = capability({ name: 'platform', storage: platformStorage, useCases: (_ports: object) => ({}) });
