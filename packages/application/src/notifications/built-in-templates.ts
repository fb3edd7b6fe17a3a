import type { Triggers } from '../common/triggers.js';
import { ADMIN_TEMPLATES } from './admin-templates.js';
import { LEARNER_TEMPLATES } from './learner-templates.js';
import { STAFF_TEMPLATES } from './staff-templates.js';
import { SHARED_VARIABLES } from './template-variables.js';

export type { TemplateDefinition, TemplateKey } from './template-definition.js';

/**
 * The notifications capability's own templates and the shared variables, offered through the `triggers` hook by
 * its module like another capability's: the events these follow are read by `trigger-sources.ts` and told by
 * `run-triggers.ts`.
 */
export const OWN_TRIGGERS: Triggers = {
  templates: [...LEARNER_TEMPLATES, ...STAFF_TEMPLATES, ...ADMIN_TEMPLATES],
  variables: SHARED_VARIABLES,
  sources: [],
};
