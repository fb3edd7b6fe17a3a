import { DomainError } from '@fundi/domain';
import type { Actor } from '../common/actor.js';
import type { Draft, SendRequest } from './notification-drafts.js';
import type { Recipient } from './recipients.js';
import type { TriggerCatalogue } from './trigger-catalogue.js';
import { templateValues } from './template-variables.js';

/** The drafts of an API send: one per recipient, the channel and template checked (invalid input otherwise). */
export function apiDrafts(
  actor: Actor,
  recipients: Recipient[],
  req: Omit<SendRequest, 'recipientId' | 'learnerId'>,
  catalogue: TriggerCatalogue,
): Draft[] {
  if (req.channel !== 'email' && req.channel !== 'whatsapp')
    throw DomainError.invalid('channel', 'must be email or whatsapp');
  const def = catalogue.template(req.template);
  if (!def[req.channel])
    throw DomainError.invalid('template', `${def.key} has no ${req.channel} version`, 'template_channel');
  const values = templateValues(req.variables ?? {}, catalogue);
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
