import { staffStorage } from '@fundi/adapters';
import { staffUseCases } from '@fundi/application';
import { capability } from './capability.js';

/** Staff users of the dashboard and their sessions; the dashboard adapter and the CLI use it, no API routes. */
export const staff = capability({ name: 'staff', storage: staffStorage, useCases: staffUseCases });
