import { describe, expect, it } from 'vitest';
import { eventOf } from './sql-outbox.js';

const row = (data: string | null) => ({
  id: 'evt_1',
  tenant_id: 'ten_1',
  type: 'learner.created',
  occurred_at: '2026-11-25T00:00:00.000Z',
  data,
  subject_id: 'lrn_1',
});

describe('an outbox event read back', () => {
  it('parses its data only when the data is read, once', () => {
    const e = eventOf(row('{"id":"lrn_1","firstName":"Thandi"}'));
    expect(e.subjectId).toBe('lrn_1');
    expect(e.data).toEqual({ id: 'lrn_1', firstName: 'Thandi' });
    expect(e.data).toBe(e.data);
    expect(JSON.parse(JSON.stringify(e))).toEqual({
      id: 'evt_1',
      tenantId: 'ten_1',
      type: 'learner.created',
      occurredAt: '2026-11-25T00:00:00.000Z',
      data: { id: 'lrn_1', firstName: 'Thandi' },
      subjectId: 'lrn_1',
    });
    expect({ ...e }.data).toEqual({ id: 'lrn_1', firstName: 'Thandi' });
  });

  it('does not parse data nobody reads', () => {
    const e = eventOf(row('not json'));
    expect(e.id).toBe('evt_1');
    expect(() => e.data).toThrow(SyntaxError);
    e.data = { replaced: true };
    expect(e.data).toEqual({ replaced: true });
    expect(eventOf(row(null)).data).toEqual({});
  });
});
