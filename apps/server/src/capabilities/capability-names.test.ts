import { describe, expect, it } from 'vitest';
import { ownedBy, sourceFiles } from '../testing/capability-files.js';

/**
 * How source text names a capability: its names in code and strings (comments aside). `import`/`export` are
 * keywords, so those two are matched by their identifiers, paths, scopes and events.
 */
const NAMES: Record<string, RegExp> = {
  hrSync: /hrSync|hr-sync|HrSync|hr_sync/,
  notifications: /notification/i,
  evidence: /evidence/i,
  imports: /Import[A-Z]|import[A-Z]|IMPORT_|Imports\b|'imports|\/imports|imports:|import\.completed/,
  exports: /Export[A-Z]|export[A-Z]|EXPORT_|Exports\b|'exports|\/exports|exports:|export\.(ready|completed)/,
};

/** The one list: `capabilities()` names every capability (docs/architecture.md, "A capability's anatomy"). */
const THE_LIST = 'apps/server/src/capabilities/capability-list.ts';

const GENERATED = 'generated from the OpenAPI document (`npm run build` of packages/client)';
const MIGRATION = 'a migration is history: it names what it changed when it was written';
const TEST_SUPPORT = 'test support: worlds and fixtures build what tests need';
/**
 * The API document's own words: an operation's summary, a field's name, description or example. The document is the
 * integrators' contract and is kept byte for byte (openapi-snapshot.test.ts); no code of the named capability is
 * called from these files.
 */
const apiWords = (what: string) => `the API document's words: ${what}`;
const LOGBOOKS = apiWords("a logbook entry's photos are evidence files, referred to by id (`evidenceIds`)");
/** Links a capability declares by an offer (docs/architecture.md, "A capability's anatomy"). */
const EXPORT_TYPE = 'the capability offers its export type (`offers.exportTypes`): a link it declares';
const IMPORT_KIND = 'the capability offers its import kind (`offers.importKinds`): a link it declares';
const IMPORT_MESSAGES =
  "the capability offers what an import's confirm would send (`offers.importMessages`): a link it declares";

/**
 * Files outside a capability's folders that still name it, each with the reason. A file that no longer names the
 * capability must leave the list, and a new one fails the test until it is listed with its reason. What is allowed:
 * the generated client, migrations (history), test support, a capability's offers to another's extension point
 * (`EXPORT_TYPE`, `IMPORT_KIND`, `IMPORT_MESSAGES`: the offer names the point it offers to, as a Backstage module
 * names its plugin's extension point), the API document's own words (`apiWords`), and one word that is not the
 * capability (Postgres' LISTEN notifications). No code link is left: a capability that needs another's records or
 * messages declares the need as an extension point and the other offers it.
 */
const STILL_NAMING: Record<string, Record<string, string>> = {
  hrSync: {
    'apps/server/src/testing/capability-files.ts': TEST_SUPPORT,
    'packages/application/src/testing/fakes.ts': TEST_SUPPORT,
    'packages/client/src/schema.ts': GENERATED,
  },
  notifications: {
    'packages/testing/src/documented-retention.ts': 'test support: the documented retention periods of every kind',
    'apps/server/src/testing/capability-files.ts': TEST_SUPPORT,
    'apps/server/src/testing/test-server.ts': TEST_SUPPORT,
    'packages/adapters/src/db/postgres-work-signal.ts': 'the word, not the capability: Postgres LISTEN notifications',
    'packages/adapters/src/platform/migrations/202611270920-job-priority.ts': MIGRATION,
    'packages/adapters/src/staff/migrations/202611241852-staff-directory.ts': MIGRATION,
    'packages/application/src/testing/fakes.ts': TEST_SUPPORT,
    'packages/client/src/schema.ts': GENERATED,
    'packages/http/src/users/user-routes.ts': apiWords('a deactivated staff user gets no notifications'),
    'apps/server/src/portal/portal-http-fixture.ts': TEST_SUPPORT,
    'packages/testing/src/fake-mailer.ts': 'test support: a fake of the mail port notifications send through',
    'packages/testing/src/fake-messaging-channel.ts':
      'test support: a fake of the WhatsApp channel notifications send through',
  },
  evidence: {
    'apps/server/src/dashboard/dashboard-browser-fixture.ts': TEST_SUPPORT,
    'apps/server/src/testing/capability-files.ts': TEST_SUPPORT,
    'packages/adapters/src/notifications/migrations/202611271018-learner-link.ts': MIGRATION,
    'packages/adapters/src/testing/import-world.ts': TEST_SUPPORT,
    'packages/application/src/testing/export-world.ts': TEST_SUPPORT,
    'packages/client/src/schema.ts': GENERATED,
    'packages/http/src/notifications/notification-schemas.ts': apiWords(
      'the example of a template key is `evidence_approved`',
    ),
    'packages/http/src/openapi/generate.ts': apiWords("the API's description names what it manages"),
    'packages/http/src/tenants/caller-routes.ts': apiWords("`GET /me` reports the tenant's evidence storage quota"),
    'apps/server/src/portal/portal-upload-fixture.ts': TEST_SUPPORT,
    'packages/adapters/src/logbooks/migrations/202611271318-logbook-entries.ts': MIGRATION,
    'packages/adapters/src/logbooks/sql-logbooks.ts': LOGBOOKS,
    'packages/adapters/src/platform/migrations/202611271247-audit-chain.ts': MIGRATION,
    'packages/adapters/src/portal/migrations/202611271950-upload-keys.ts': MIGRATION,
    'packages/domain/src/logbooks/logbook.ts': LOGBOOKS,
    'packages/http/src/audit/audit-routes.ts': apiWords("a learner's audit history covers their evidence"),
    'packages/http/src/logbooks/logbook-schemas.ts': LOGBOOKS,
    'packages/memory/src/logbooks/in-memory-logbooks.ts': LOGBOOKS,
  },
  imports: {
    'packages/testing/src/documented-retention.ts': 'test support: the documented retention periods of every kind',
    'apps/server/src/testing/capability-files.ts': TEST_SUPPORT,
    'packages/adapters/src/platform/migrations/202611270920-job-priority.ts': MIGRATION,
    'packages/client/src/schema.ts': GENERATED,
    'apps/server/src/capabilities/evidence.ts': IMPORT_KIND,
    'apps/server/src/capabilities/learners.ts': IMPORT_KIND,
    'apps/server/src/capabilities/logbooks.ts': IMPORT_KIND,
    'apps/server/src/capabilities/training.ts': IMPORT_KIND,
    'packages/application/src/assessments/assessment-import.ts': IMPORT_KIND,
    'packages/application/src/enrolments/enrolment-import.ts': IMPORT_KIND,
    'packages/application/src/evidence/evidence-import.ts': IMPORT_KIND,
    'packages/application/src/learners/learner-import.ts': IMPORT_KIND,
    'packages/application/src/logbooks/logbook-import.ts': IMPORT_KIND,
    'packages/application/src/testing/fakes.ts': TEST_SUPPORT,
    'apps/server/src/capabilities/notifications.ts': IMPORT_MESSAGES,
    'packages/application/src/notifications/notification-import-messages.ts': IMPORT_MESSAGES,
  },
  exports: {
    'apps/server/src/testing/capability-files.ts': TEST_SUPPORT,
    'packages/adapters/src/platform/migrations/202611270920-job-priority.ts': MIGRATION,
    'packages/client/src/schema.ts': GENERATED,
    'packages/domain/src/testing/builders.ts': TEST_SUPPORT,
    'packages/domain/src/testing/golden-data.ts': TEST_SUPPORT,
    'apps/server/src/capabilities/audit.ts': EXPORT_TYPE,
    'apps/server/src/capabilities/evidence.ts': EXPORT_TYPE,
    'apps/server/src/capabilities/learners.ts': EXPORT_TYPE,
    'apps/server/src/capabilities/logbooks.ts': EXPORT_TYPE,
    'apps/server/src/capabilities/training.ts': EXPORT_TYPE,
    'packages/application/src/assessments/assessment-export.ts': EXPORT_TYPE,
    'packages/application/src/audit/audit-export.ts': EXPORT_TYPE,
    'packages/application/src/enrolments/enrolment-export.ts': EXPORT_TYPE,
    'packages/application/src/evidence/evidence-export.ts': EXPORT_TYPE,
    'packages/application/src/learners/learner-export.ts': EXPORT_TYPE,
    'packages/application/src/logbooks/logbook-export.ts': EXPORT_TYPE,
    'packages/application/src/testing/fakes.ts': TEST_SUPPORT,
  },
};

const strip = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');

describe("no file outside a capability's folders names it, but the list and the files allowed (with why)", () => {
  const files = sourceFiles().map((f) => ({ file: f.file, code: strip(f.text) }));
  for (const [capability, names] of Object.entries(NAMES)) {
    it(capability, () => {
      const naming = files
        .filter((f) => f.file !== THE_LIST && !ownedBy(f.file, capability) && names.test(f.code))
        .map((f) => f.file);
      expect(naming.sort()).toEqual(Object.keys(STILL_NAMING[capability]!).sort());
    });
  }
});
