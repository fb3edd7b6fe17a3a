import { AccessPolicy, ROLES, newId } from '@fundi/domain';
import { memoryStorage } from '@fundi/memory';
import { hrSyncMemory } from '@fundi/memory/hr-sync';
import { learnerMemory } from '@fundi/memory/learners';
import { notificationMemory } from '@fundi/memory/notifications';
import { platformMemory } from '@fundi/memory/platform';
import { staffMemory } from '@fundi/memory/staff';
import { tenantMemory } from '@fundi/memory/tenants';
import { trainingMemory } from '@fundi/memory/training';
import { webhookMemory } from '@fundi/memory/webhooks';
import { FixedClock, fakeSecrets } from '@fundi/testing';
import type { Actor } from '../common/actor.js';
import type { OfferedHooks } from '../common/hooks.js';
import { hrErasureStep } from '../hr-sync/hr-erasure.js';
import { hrSubscriptionPurpose } from '../hr-sync/hr-subscription.js';
import { hrSystemActor } from '../hr-sync/hr-sync-ports.js';
import { notificationErasureStep } from '../notifications/notification-erasure.js';
import { OWN_TRIGGERS } from '../notifications/built-in-templates.js';
import { importMessageCount } from '../notifications/notification-import-messages.js';
import { auditErasureStep } from '../audit/audit-erasure.js';
import { webhookErasureStep } from '../webhooks/webhook-erasure.js';
import { learnerExport } from '../learners/learner-export.js';
import { enrolmentExport } from '../enrolments/enrolment-export.js';
import { assessmentExport } from '../assessments/assessment-export.js';
import { learnerImport } from '../learners/learner-import.js';
import { enrolmentImport } from '../enrolments/enrolment-import.js';
import { assessmentImport } from '../assessments/assessment-import.js';

const ALL_ROLES = [...ROLES];

/*
 * Why the lists below are written out instead of derived from the capabilities' declarations: the declarations are
 * the capability modules of apps/server (docs/architecture.md, "A capability's anatomy"), which depend on this
 * package, so this package's tests cannot import them without a dependency cycle. Each list is the part of the
 * declared one this world's fakes need; the service's own lists are derived, and checked by
 * apps/server/src/capabilities/declared.test.ts.
 */

/**
 * A test double of the access policy: the learners' and training's scopes as their modules grant them. The service's
 * policy is derived from every capability's declaration in apps/server (docs/architecture.md, "A capability's
 * anatomy"); application tests need only these.
 */
export const TEST_ACCESS = new AccessPolicy({
  'learners:read': ALL_ROLES,
  'learners:write': ['admin', 'manager', 'facilitator', 'integration'],
  'learners:delete': ['admin', 'manager'],
  'assessments:read': ALL_ROLES,
  'assessments:write': ['admin', 'manager', 'assessor', 'integration'],
  'assessments:moderate': ['admin', 'moderator'],
});

/** A test double of the subscribable event names (the service derives them from the capabilities' events). */
export const TEST_EVENT_TYPES = ['learner.created', 'learner.updated', 'assessment.recorded', 'assessment.completed'];

/**
 * The offers of the capabilities whose fakes this world holds, in the capability list's order: today every declared
 * `learnerErasure` step, `subscriptionPurpose` and `systemActor` (HR sync's), `triggers` (the notifications' own) and
 * `importMessages` (the notifications' count), and the learners' and training's export types and import kinds.
 */
export const TEST_HOOKS: OfferedHooks = {
  learnerErasure: [webhookErasureStep, hrErasureStep, notificationErasureStep, auditErasureStep],
  subscriptionPurpose: [hrSubscriptionPurpose],
  triggers: [OWN_TRIGGERS],
  systemActor: [hrSystemActor],
  exportTypes: [[learnerExport], [enrolmentExport, assessmentExport]],
  importKinds: [[learnerImport], [enrolmentImport, assessmentImport]],
  // The notifications' preferences are offered with their HTTP schemas, in apps/server: not part of this world.
  staffFields: [],
  learnerScopes: [],
  importMessages: [importMessageCount(false)],
};

/**
 * Use-case dependencies over the in-memory fakes of every existing capability, with a fixed clock. `store.tables`
 * lets a test look at the rows.
 */
export function fakeDeps(clock = new FixedClock()) {
  const { store, repositories, uow } = memoryStorage([
    platformMemory,
    tenantMemory,
    learnerMemory,
    trainingMemory,
    webhookMemory,
    hrSyncMemory,
    notificationMemory,
    staffMemory,
  ]);
  const tables = () => store.tables as ReturnType<typeof tableTypes>;
  return {
    store: {
      get tables() {
        return tables();
      },
    },
    repos: repositories(),
    uow,
    clock,
    secrets: fakeSecrets(),
    access: TEST_ACCESS,
    hooks: TEST_HOOKS,
  };
}

// Only for its type: the tables of every part together.
const tableTypes = () => ({
  ...platformMemory.tables(),
  ...tenantMemory.tables(),
  ...learnerMemory.tables(),
  ...trainingMemory.tables(),
  ...webhookMemory.tables(),
  ...hrSyncMemory.tables(),
  ...notificationMemory.tables(),
  ...staffMemory.tables(),
});

/** An admin actor of the tenant with a key id of its own; override the id, role or scopes. */
export function anActor(tenantId: string, o: Partial<Actor> = {}): Actor {
  return {
    tenantId,
    id: newId('key'),
    role: 'admin',
    scopes: ['learners:read', 'learners:write', 'learners:delete'],
    ...o,
  };
}
