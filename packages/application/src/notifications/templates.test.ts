import { describe, expect, it } from 'vitest';
import { evidenceTriggers } from '../evidence/evidence-triggers.js';
import { exportTriggers } from '../exports/export-triggers.js';
import { catalogueOf } from './trigger-catalogue.js';
import { templateValues } from './template-variables.js';
import {
  checkEmailTemplate,
  fitWhatsApp,
  renderEmail,
  renderWhatsApp,
  WHATSAPP_PARAMETER_BUDGET,
  templateVariablesOf,
  type EmailTemplate,
} from './templates.js';

const greeting: EmailTemplate = {
  subject: 'Hello {{ learner.firstName }} from {{organisation.name}}',
  html: '<p>Hello {{learner.firstName}}, open <a href="{{actionUrl}}">this</a>.</p>',
  text: 'Hello {{learner.firstName}}, open {{actionUrl}}',
};
/** The service's catalogue: the notifications' own triggers and those the evidence and the exports offer. */
const catalogue = catalogueOf({ hooks: { triggers: [evidenceTriggers, exportTriggers] } });
const BUILT_IN_TEMPLATES = catalogue.templates;
const builtInTemplate = (key: string) => catalogue.template(key);
const values = (v: Record<string, unknown>) => templateValues(v, catalogue);
const ok = {
  'learner.firstName': 'Thandi',
  'organisation.name': 'Acme & Sons',
  actionUrl: 'https://app.fundi.example/x?a=1&b=2',
};

describe('template rendering', () => {
  it('escapes values in the HTML part only', () => {
    const r = renderEmail(greeting, values({ ...ok, 'learner.firstName': '<script>alert("x")</script>' }), catalogue);
    expect(r.html).toBe(
      '<p>Hello &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;, open <a href="https://app.fundi.example/x?a=1&amp;b=2">this</a>.</p>',
    );
    expect(r.html).not.toContain('<script>');
    expect(r.text).toBe('Hello <script>alert("x")</script>, open https://app.fundi.example/x?a=1&b=2');
    expect(r.subject).toBe('Hello <script>alert("x")</script> from Acme & Sons');
  });

  it('keeps the subject on one line whatever the values hold', () => {
    expect(
      renderEmail(greeting, values({ ...ok, 'learner.firstName': 'Thandi\r\nBcc: x@y.z' }), catalogue).subject,
    ).toBe('Hello Thandi Bcc: x@y.z from Acme & Sons');
  });

  it('refuses a missing or blank variable, naming each, never rendering an empty string', () => {
    const missing = (v: Record<string, string>) => {
      try {
        renderEmail(greeting, values(v), catalogue);
      } catch (e) {
        return e;
      }
      return null;
    };
    expect(missing({ 'organisation.name': 'Acme', actionUrl: ok.actionUrl })).toMatchObject({
      kind: 'invalid',
      code: 'missing_template_variable',
      details: [{ field: 'variables.learner.firstName' }],
    });
    expect(missing({ 'learner.firstName': '  ', actionUrl: ok.actionUrl })).toMatchObject({
      code: 'missing_template_variable',
      details: [{ field: 'variables.learner.firstName' }, { field: 'variables.organisation.name' }],
    });
  });

  it('refuses an unknown variable in a template, naming it', () => {
    const bad = { ...greeting, html: '<p>Hi {{learner.fistName}}</p>' };
    expect(() => renderEmail(bad, values(ok), catalogue)).toThrow(
      expect.objectContaining({
        kind: 'invalid',
        code: 'unknown_template_variable',
        details: [{ field: 'html', message: 'unknown template variable "learner.fistName"' }],
      }),
    );
    expect(() => checkEmailTemplate(bad, catalogue)).toThrow(
      expect.objectContaining({ code: 'unknown_template_variable' }),
    );
    expect(() => checkEmailTemplate({ ...greeting, text: 'Hi {{learner.firstName}' }, catalogue)).toThrow(
      expect.objectContaining({ code: 'invalid_template', details: [{ field: 'text', message: expect.any(String) }] }),
    );
    expect(() => checkEmailTemplate(greeting, catalogue)).not.toThrow();
  });

  it('refuses unknown, non-string and contradicting values, and an actionUrl that is no web link', () => {
    expect(() => values({ ...ok, 'learner.nickname': 'T' })).toThrow(
      expect.objectContaining({
        code: 'unknown_template_variable',
        details: [{ field: 'variables.learner.nickname', message: 'unknown template variable "learner.nickname"' }],
      }),
    );
    expect(() => values({ 'learner.firstName': 3 })).toThrow(
      expect.objectContaining({
        code: 'invalid_template_variable',
        details: [{ field: 'variables.learner.firstName', message: 'must be a string' }],
      }),
    );
    expect(() => values({ 'learner.firstName': 'Thandi', learner_name: 'Sipho' })).toThrow(
      expect.objectContaining({
        details: [{ field: 'variables.learner_name', message: expect.stringContaining('contradicts') }],
      }),
    );
    expect(() => values({ actionUrl: 'javascript:alert(1)' })).toThrow(
      expect.objectContaining({ details: [{ field: 'variables.actionUrl', message: 'must be an http or https URL' }] }),
    );
  });

  it("reads the messaging channel's names as the same variables, and folds whitespace in WhatsApp parameters", () => {
    const r = renderWhatsApp(
      builtInTemplate('evidence_revision').whatsapp!,
      values({
        learner_name: 'Thandi',
        evidence_type: 'logbook',
        feedback: 'Add the\nsignature\t\t on     page 4',
        actionUrl: 'https://app.fundi.example/learn?tenant=ubuntu-skills',
      }),
    );
    expect(r).toEqual({
      template: 'evidence_revision',
      language: 'en',
      parameters: [
        'Thandi',
        'logbook',
        'Add the signature on page 4',
        'https://app.fundi.example/learn?tenant=ubuntu-skills',
      ],
    });
    expect(() =>
      renderWhatsApp(builtInTemplate('evidence_revision').whatsapp!, values({ learner_name: 'Thandi' })),
    ).toThrow(
      expect.objectContaining({
        code: 'missing_template_variable',
        details: [
          { field: 'variables.evidence.type', message: 'is required by the template (evidence.type)' },
          { field: 'variables.evidence.feedback', message: 'is required by the template (evidence.feedback)' },
          { field: 'variables.actionUrl', message: 'is required by the template (actionUrl)' },
        ],
      }),
    );
  });

  it('cuts the longest text parameters to fit the body limit, never the portal link', () => {
    const url = `https://app.fundi.example/learn?tenant=${'u'.repeat(150)}`;
    const feedback = 'Please redo page four. '.repeat(100).trim();
    const r = renderWhatsApp(
      builtInTemplate('evidence_revision').whatsapp!,
      values({ learner_name: 'Thandi', evidence_type: 'logbook', feedback, actionUrl: url }),
    );
    expect(r.parameters.slice(0, 2)).toEqual(['Thandi', 'logbook']);
    expect(r.parameters[3]).toBe(url);
    expect(r.parameters.join('').length).toBeLessThanOrEqual(WHATSAPP_PARAMETER_BUDGET);
    expect(r.parameters[2]!.endsWith('…')).toBe(true);
    expect(feedback.startsWith(r.parameters[2]!.slice(0, -1))).toBe(true);
    // Short parameters are left whole.
    expect(fitWhatsApp(['a', 'b'], new Set())).toEqual(['a', 'b']);
  });
});

describe('built-in templates', () => {
  const spec = [
    'welcome',
    'evidence_approved',
    'evidence_revision',
    'assessment_result',
    'programme_complete',
    'deadline_reminder',
    'new_evidence',
    'moderation_due',
    'report_ready',
    'user_invited',
    'security_alert',
    'export_complete',
    'quota_warning',
    'webhook_disabled',
    // Ours, beyond the spec's list: the admins hear about a hard bounce.
    'contact_bounced',
    'password_reset',
    'programme_milestone',
    // The learner portal's sign-in: a link by email, a code by WhatsApp.
    'portal_sign_in',
    'portal_code',
    // The supervisor's sign-off link of a logbook entry.
    'logbook_sign_off',
  ];

  it("has one for every trigger, with WhatsApp templates for the messaging channel's five and the portal's code", () => {
    // In the order they were added in, whichever capability offers them (each template's `order`).
    expect(BUILT_IN_TEMPLATES.map((t) => t.key)).toEqual(spec);
    expect(catalogue.staffKeys).toEqual([
      'new_evidence',
      'moderation_due',
      'report_ready',
      'user_invited',
      'security_alert',
      'export_complete',
      'quota_warning',
      'webhook_disabled',
      'contact_bounced',
    ]);
    expect(
      BUILT_IN_TEMPLATES.filter((t) => t.whatsapp)
        .map((t) => t.key)
        .sort(),
    ).toEqual([
      'assessment_result',
      'deadline_reminder',
      'evidence_approved',
      'evidence_revision',
      'logbook_sign_off',
      'portal_code',
      'programme_milestone',
    ]);
    expect(() => builtInTemplate('nope')).toThrow(
      expect.objectContaining({ kind: 'invalid', code: 'unknown_template' }),
    );
  });

  it.each(BUILT_IN_TEMPLATES.map((t) => [t.key, t] as const))(
    '%s renders with its documented sample, which names exactly what it uses',
    (_key, t) => {
      const v = values(t.sample);
      const used = new Set<string>();
      if (t.email) {
        checkEmailTemplate(t.email, catalogue);
        for (const part of ['subject', 'html', 'text'] as const)
          for (const n of templateVariablesOf(t.email[part], catalogue)) used.add(n);
        const r = renderEmail(t.email, v, catalogue);
        for (const part of [r.subject, r.html, r.text]) expect(part).not.toMatch(/\{\{|\}\}/);
        expect(r.text).toContain(t.sample['organisation.name']);
        for (const value of Object.values(t.sample)) expect(`${r.subject}\n${r.text}`).toContain(value);
        expect(r.html).toMatch(/^<p>/);
      }
      if (t.whatsapp) {
        for (const p of t.whatsapp.parameters) used.add(p);
        const r = renderWhatsApp(t.whatsapp, v);
        expect(r.parameters).toEqual(t.whatsapp.parameters.map((p) => t.sample[p]));
        expect(r.template).toBe(t.key);
      }
      expect([...used].sort()).toEqual(Object.keys(t.sample).sort());
      for (const name of used) expect(catalogue.isVariable(name)).toBe(true);
    },
  );
});
