import type { LogbookEntrySnapshot } from '@fundi/domain/logbooks';

export type LogbookEntryView = Omit<LogbookEntrySnapshot, 'tenantId' | 'signOff'> & {
  /** Who answered the sign-off link, when, from which address, and the hash of what they answered for. */
  signOff: LogbookEntrySnapshot['signOff'];
};

export function logbookView(e: LogbookEntrySnapshot): LogbookEntryView {
  const { tenantId: _t, ...rest } = e;
  return rest;
}
