import { describe, expect, it } from 'vitest';
import { fakeDeps } from '../testing/fakes.js';
import { MessageTally, type MessageDue } from './import-messages.js';

const reachable = { email: 'thandi@example.org', mobile: '0825550101', emailOptOut: false, whatsappConsent: true };
const unreachable = { email: null, mobile: null, emailOptOut: false, whatsappConsent: false };
const due = (template: string, learner: MessageDue['learner'] = reachable): MessageDue => ({ template, learner });

describe("an import's dry run counts what a confirm would send through the offers of `importMessages`", () => {
  it('counts no message where nobody offers the count, whatever is due', async () => {
    const d = fakeDeps();
    for (const hooks of [undefined, { ...d.hooks, importMessages: [] }]) {
      const tally = new MessageTally({ repos: d.repos, hooks }, { tenantId: 'ten_a', notify: 'all' });
      await tally.add([due('welcome'), due('assessment_result')]);
      expect(tally.result()).toEqual({ email: 0, whatsapp: 0, templates: [] });
    }
  });

  it("sums the offer's counts of each batch per template, in the order templates were first due", async () => {
    const d = fakeDeps();
    const tally = new MessageTally(d, { tenantId: 'ten_a', notify: 'all' });
    await tally.add([due('assessment_result'), due('welcome', unreachable)]);
    await tally.add([due('welcome'), due('assessment_result'), due('welcome')]);
    expect(tally.result()).toEqual({
      email: 4,
      whatsapp: 0,
      templates: [
        { template: 'assessment_result', email: 2, whatsapp: 0 },
        { template: 'welcome', email: 2, whatsapp: 0 },
      ],
    });
  });

  it('counts nothing for an import that messages nobody (`notify: none`)', async () => {
    const d = fakeDeps();
    const tally = new MessageTally(d, { tenantId: 'ten_a', notify: 'none' });
    await tally.add([due('welcome')]);
    expect(tally.result()).toEqual({ email: 0, whatsapp: 0, templates: [] });
  });
});
