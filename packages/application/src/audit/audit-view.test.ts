import { auditOrigins, KERNEL_ORIGINS, type AuditRecord } from '@fundi/domain/audit';
import { describe, expect, it } from 'vitest';
import { systemActorsOf } from '../common/actor.js';
import { hrSystemActor } from '../hr-sync/hr-sync-ports.js';
import { auditView } from './audit-view.js';

const entry = (actor: string): AuditRecord => ({
  id: 'aud_1',
  tenantId: 'ten_1',
  actor,
  action: 'learner.created',
  resourceType: 'learner',
  resourceId: 'lrn_1',
  at: '2026-01-01T00:00:00.000Z',
  details: {},
  personalFields: [],
  personalValues: null,
});

describe('the origins and the service’s own actors, as declared', () => {
  const declared = systemActorsOf([hrSystemActor]);

  it('shows an entry written before origins were kept with its actor’s declared origin and name', () => {
    expect(auditView(entry('hr-sync'), new Map(), declared)).toMatchObject({
      actor: { type: 'system', id: 'hr-sync', name: 'HR sync' },
      origin: { via: 'hr-sync', ip: null },
    });
    expect(auditView(entry('system'), new Map(), declared).origin.via).toBe('worker');
    expect(auditView(entry('cli'), new Map(), declared).actor.name).toBe('Operator (command line)');
    expect(auditView(entry('usr_1'), new Map(), declared).origin.via).toBe('dashboard');
    expect(auditView(entry('key_1'), new Map(), declared).origin.via).toBe('api');
  });

  it('puts a declared origin in its place among the kernel’s, and refuses one declared twice', () => {
    expect(auditOrigins([hrSystemActor.origin])).toEqual([
      'api',
      'dashboard',
      'portal',
      'import',
      'hr-sync',
      'worker',
      'cli',
    ]);
    expect(() => auditOrigins([KERNEL_ORIGINS[0]!])).toThrow(/api is declared twice/);
    expect(() => systemActorsOf([hrSystemActor, hrSystemActor])).toThrow(/hr-sync is declared twice/);
  });
});
