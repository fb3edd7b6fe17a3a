import { DomainError, type ErrorDetail } from '@fundi/domain';
import type { EmailTemplate, WhatsAppTemplate } from '../common/triggers.js';
import type { TemplateValues, TemplateVariable, Vocabulary } from './template-variables.js';

export type { EmailTemplate, WhatsAppTemplate } from '../common/triggers.js';
import { escapeHtml } from '../common/trigger-templates.js';
export { escapeHtml };

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

export interface RenderedWhatsApp {
  template: string;
  language: string;
  parameters: string[];
}

type Segment = string | { variable: TemplateVariable };

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

/**
 * Splits `{{variable}}` template text into literal text and variables. DomainError('invalid') on `field` for a name
 * that is no template variable (`unknown_template_variable`) or a brace left open (`invalid_template`).
 */
function compile(text: string, field: string, known: Pick<Vocabulary, 'isVariable'>): Segment[] {
  const segments: Segment[] = [];
  let at = 0;
  for (const m of text.matchAll(PLACEHOLDER)) {
    const name = m[1]!;
    if (!known.isVariable(name)) {
      throw new DomainError('invalid', 'unknown_template_variable', `${field}: unknown template variable "${name}"`, [
        { field, message: `unknown template variable "${name}"` },
      ]);
    }
    segments.push(text.slice(at, m.index), { variable: name });
    at = m.index + m[0].length;
  }
  segments.push(text.slice(at));
  const stray = segments.find((s) => typeof s === 'string' && (s.includes('{{') || s.includes('}}')));
  if (stray !== undefined)
    throw new DomainError('invalid', 'invalid_template', `${field}: a {{ or }} is not part of a {{variable}}`, [
      { field, message: 'a {{ or }} is not part of a {{variable}}' },
    ]);
  return segments;
}

/** The variables a template text names, in order of first use. */
export function templateVariablesOf(
  text: string,
  known: Pick<Vocabulary, 'isVariable'>,
  field = 'template',
): TemplateVariable[] {
  return [...new Set(compile(text, field, known).flatMap((s) => (typeof s === 'string' ? [] : [s.variable])))];
}

/** A value is required: absent or blank is never rendered as an empty string. */
function missingOf(names: readonly TemplateVariable[], values: TemplateValues): ErrorDetail[] {
  return names
    .filter((n) => !values.get(n)?.trim())
    .map((n) => ({ field: `variables.${n}`, message: `is required by the template (${n})` }));
}

function throwMissing(missing: ErrorDetail[]): void {
  if (missing.length)
    throw new DomainError(
      'invalid',
      'missing_template_variable',
      `${missing[0]!.field}: ${missing[0]!.message}`,
      missing,
    );
}

function fill(segments: Segment[], values: TemplateValues, encode: (s: string) => string): string {
  return segments.map((s) => (typeof s === 'string' ? s : encode(values.get(s.variable)!))).join('');
}

/** Checks a tenant's email template (every part compiles) before it is stored. */
export function checkEmailTemplate(t: EmailTemplate, known: Pick<Vocabulary, 'isVariable'>): void {
  if (!t.subject.trim()) throw DomainError.invalid('subject', 'must not be empty');
  if (!t.text.trim()) throw DomainError.invalid('text', 'must not be empty: every email has a plain-text part');
  compile(t.subject, 'subject', known);
  compile(t.html, 'html', known);
  compile(t.text, 'text', known);
}

/**
 * Renders an email: values are HTML-escaped in the HTML part, as they are in the text part, and on one line in the
 * subject. Every variable any part names must have a non-blank value (`missing_template_variable`, naming each).
 */
export function renderEmail(
  t: EmailTemplate,
  values: TemplateValues,
  known: Pick<Vocabulary, 'isVariable'>,
): RenderedEmail {
  const parts = {
    subject: compile(t.subject, 'subject', known),
    html: compile(t.html, 'html', known),
    text: compile(t.text, 'text', known),
  };
  const used = [
    ...new Set(
      Object.values(parts)
        .flat()
        .flatMap((s) => (typeof s === 'string' ? [] : [s.variable])),
    ),
  ];
  throwMissing(missingOf(used, values));
  return {
    subject: fill(parts.subject, values, (v) => v.replace(/\s+/g, ' ').trim()),
    html: fill(parts.html, values, escapeHtml),
    text: fill(parts.text, values, (v) => v),
  };
}

/**
 * The characters a WhatsApp template's parameters may take together: the provider refuses a body over 1,024
 * characters, and the registered text around the parameters takes the rest (docs/api.md, "Notifications").
 */
export const WHATSAPP_PARAMETER_BUDGET = 700;

/**
 * Cuts the longest parameters (never a link: a cut link is useless) until all fit the budget, each cut one ending in
 * an ellipsis; the whole text is on the page the link opens.
 */
export function fitWhatsApp(parameters: string[], keep: ReadonlySet<number>): string[] {
  const out = [...parameters];
  for (;;) {
    const over = out.reduce((n, p) => n + p.length, 0) - WHATSAPP_PARAMETER_BUDGET;
    const cut = out.reduce((best, p, i) => (!keep.has(i) && (best < 0 || p.length > out[best]!.length) ? i : best), -1);
    if (over <= 0 || cut < 0 || out[cut]!.length <= 20) return out;
    out[cut] = `${out[cut]!.slice(0, Math.max(19, out[cut]!.length - over - 1)).trimEnd()}…`;
  }
}

/**
 * A WhatsApp template's parameters from the values, in its order. The provider refuses line breaks, tabs and long
 * runs of spaces in a parameter, so whitespace is folded to single spaces; and a body over its limit, so the longest
 * text parameters are cut to fit (`fitWhatsApp`), the link never.
 */
export function renderWhatsApp(t: WhatsAppTemplate, values: TemplateValues): RenderedWhatsApp {
  throwMissing(missingOf(t.parameters, values));
  const links = new Set(t.parameters.flatMap((p, i) => (p === 'actionUrl' ? [i] : [])));
  return {
    template: t.name,
    language: t.language,
    parameters: fitWhatsApp(
      t.parameters.map((p) => values.get(p)!.replace(/\s+/g, ' ').trim()),
      links,
    ),
  };
}
