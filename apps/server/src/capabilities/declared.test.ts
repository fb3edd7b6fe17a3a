import { declaredBy } from '@fundi/adapters';
import { learnerScopesOf } from '@fundi/application/portal';
import { ROLES } from '@fundi/domain';
import { describe, expect, it } from 'vitest';
import { STORAGE_ONLY } from './index.js';

const words = (s: string) => s.trim().split(/\s+/);

/**
 * Each role's scopes as the service granted them before capabilities declared their own (docs/api.md), with the
 * logbooks' scopes since added.
 */
const ROLES_BEFORE: Record<string, string[]> = {
  admin: words(`
    learners:read learners:write learners:delete programmes:read programmes:write programmes:delete
    enrolments:read enrolments:write assessments:read assessments:write assessments:moderate
    evidence:read evidence:write evidence:review evidence:delete exports:read exports:write imports:read
    imports:write notifications:read notifications:write notifications:delete users:read users:write
    webhooks:read webhooks:write webhooks:delete hr:read hr:write usage:read audit:read
    logbooks:read logbooks:write logbooks:delete
  `),
  manager: words(`
    learners:read learners:write learners:delete programmes:read programmes:write programmes:delete
    enrolments:read enrolments:write assessments:read assessments:write evidence:read evidence:write
    evidence:review evidence:delete exports:read exports:write imports:read imports:write
    notifications:read notifications:write notifications:delete users:read webhooks:read hr:read
    usage:read audit:read
    logbooks:read logbooks:write logbooks:delete
  `),
  assessor: words(`
    learners:read programmes:read enrolments:read assessments:read evidence:read exports:read
    imports:read notifications:read users:read assessments:write evidence:write evidence:review
    logbooks:read logbooks:write logbooks:delete
  `),
  moderator: words(`
    learners:read programmes:read enrolments:read assessments:read assessments:moderate evidence:read
  `),
  facilitator: words(`
    learners:read learners:write programmes:read enrolments:read enrolments:write assessments:read
    evidence:read evidence:write notifications:read notifications:write
    logbooks:read logbooks:write logbooks:delete
  `),
  viewer: words(`
    learners:read programmes:read enrolments:read assessments:read evidence:read exports:read
    imports:read notifications:read users:read webhooks:read hr:read usage:read
    logbooks:read
  `),
  integration: words(`
    learners:read learners:write programmes:read programmes:write enrolments:read enrolments:write
    assessments:read assessments:write evidence:read evidence:write exports:read exports:write
    imports:read imports:write notifications:read notifications:write users:read webhooks:read
    webhooks:write hr:read hr:write usage:read
    logbooks:read logbooks:write
  `),
};

const EVENTS_BEFORE = words(`
  learner.created learner.updated evidence.uploaded evidence.reviewed assessment.recorded
  assessment.completed moderation.completed moderation.sample_drawn enrolment.status_changed
  export.ready export.completed import.completed statement.issued statement.revoked logbook.submitted
  logbook.signed logbook.queried
`);

const PREFIXES_BEFORE = words(`
  wha ten key lrn aud evt prg enr asm mod smp esh whs dlv job evd exp imp ntf alr upl bdl hre usr sor lbe lbs
`);

/** A signed-in learner's scopes at the portal, as the portal listed them before capabilities offered their own. */
const LEARNER_BEFORE = words(`
  learners:read programmes:read enrolments:read assessments:read evidence:read evidence:write logbooks:read
  logbooks:write
`);

const sorted = (xs: Iterable<string>) => [...xs].sort();

describe('the lists derived from the capabilities’ declarations', () => {
  const declared = declaredBy(STORAGE_ONLY());

  it('grant every role exactly the scopes it had', () => {
    for (const role of ROLES) expect(sorted(declared.access.of(role)), role).toEqual(sorted(ROLES_BEFORE[role]!));
    expect(sorted(declared.access.scopes)).toEqual(sorted(ROLES_BEFORE.admin!));
  });

  it('give a learner at the portal exactly the scopes they had', () => {
    expect(sorted(learnerScopesOf(declared.hooks.learnerScopes, declared.access))).toEqual(sorted(LEARNER_BEFORE));
  });

  it('name every event subscribers could ask for, and every id prefix, once', () => {
    expect(sorted(declared.eventTypes)).toEqual(sorted(EVENTS_BEFORE));
    expect(sorted(declared.idPrefixes.keys())).toEqual(sorted(PREFIXES_BEFORE));
  });

  it('refuse a scope, event or prefix declared by two capabilities, and a malformed one', () => {
    const a = { name: 'a', declares: { scopes: { 'things:read': ['admin' as const] } } };
    expect(() => declaredBy([a, { ...a, name: 'b' }])).toThrow('The scope things:read is declared by both a and b');
    const e = { name: 'a', declares: { events: { 'thing.made': {} } } };
    expect(() => declaredBy([e, { ...e, name: 'b' }])).toThrow('The event thing.made is declared by both a and b');
    const p = { name: 'a', declares: { ids: ['thg'] } };
    expect(() => declaredBy([p, { ...p, name: 'b' }])).toThrow('The id prefix thg is declared by both a and b');
    expect(() => declaredBy([{ name: 'a', declares: { ids: ['th'] } }])).toThrow('Malformed id prefix th');
    expect(() => declaredBy([{ name: 'a', declares: { scopes: { 'Things:read': [] } } }])).toThrow('Malformed scope');
  });

  it('hand the webhooks every declared subscription purpose, whose events no one else declares', () => {
    expect(declared.hooks.subscriptionPurpose.map((p) => p.name)).toEqual(['hr_sync']);
    for (const p of declared.hooks.subscriptionPurpose)
      for (const type of p.events) expect(declared.eventTypes).not.toContain(type);
    const purpose = { name: 'own', events: ['thing.sent'], disabledAlert: () => ({ kind: 'k', message: 'm' }) };
    const own = { name: 'a', declares: { offers: { subscriptionPurpose: purpose } } };
    const e = { name: 'b', declares: { events: { 'thing.sent': {} } } };
    expect(() => declaredBy([own, e])).toThrow('The event thing.sent is declared by both a and b');
    expect(() => declaredBy([own, { ...own, name: 'c' }])).toThrow('The subscription purpose own is declared by both');
    const api = { name: 'a', declares: { offers: { subscriptionPurpose: { ...purpose, name: 'webhook' } } } };
    expect(() => declaredBy([api])).toThrow("a declares the webhook API's own purpose");
  });

  it("hand the notifications every capability's triggers, a template key offered once", () => {
    // In the list's order: the evidence's, the exports', then the notifications' own fifteen.
    const keys = declared.hooks.triggers.flatMap((t) => t.templates.map((x) => x.key));
    expect(keys.slice(0, 5)).toEqual([
      'evidence_approved',
      'evidence_revision',
      'new_evidence',
      'report_ready',
      'export_complete',
    ]);
    expect(new Set(keys).size).toBe(20);
    const template = { key: 'thing_done', order: 5, audience: 'staff' as const, trigger: 't', email: null };
    const offer = { templates: [{ ...template, whatsapp: null, sample: {} }], variables: {}, sources: [] };
    const own = { name: 'a', declares: { offers: { triggers: offer } } };
    expect(() => declaredBy([own, { ...own, name: 'b' }])).toThrow(
      'The trigger thing_done is declared by both a and b',
    );
  });
});
