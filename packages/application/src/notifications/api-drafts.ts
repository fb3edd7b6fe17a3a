import { DomainError } from '@fundi/domain';
import type { Actor } from '../common/actor.js';
import { builtInTemplate } from './built-in-templates.js';
import type { Draft, SendRequest } from './notification-drafts.js';
import type { Recipient } from './recipients.js';
import { templateValues } from './template-variables.js';

/** The drafts of an API send: one per recipient, the channel and template checked (invalid input otherwise). */
export function apiDrafts(
  actor: Actor,
  recipients: Recipient[],
  req: Omit<SendRequest, 'recipientId' | 'learnerId'>,
): Draft[] {
  if (req.channel !== 'email' && req.channel !== 'whatsapp')
    throw DomainError.invalid('channel', 'must be email or whatsapp');
  const def = builtInTemplate(req.template);
  if (!def[req.channel])
    throw DomainError.invalid('template', `${def.key} has no ${req.channel} version`, 'template_channel');
  const values = templateValues(req.variables ?? {});
  return recipients.map((recipient) => ({
    recipient,
    channel: req.channel,
    template: def.key,
    values,
    trigger: null,
    dedupeKey: null,
    createdBy: actor.id,
  }));
}
