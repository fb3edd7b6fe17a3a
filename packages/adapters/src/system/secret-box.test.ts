import { describe, expect, it } from 'vitest';
import { AesGcmSecretBox } from './secret-box.js';

describe('AesGcmSecretBox', () => {
  const key = Buffer.alloc(32, 3);

  it('seals to opaque text and opens it again', () => {
    const box = new AesGcmSecretBox(key, 'webhook-secret');
    const sealed = box.seal('whsec_abc');
    expect(sealed).not.toContain('whsec_abc');
    expect(box.seal('whsec_abc')).not.toBe(sealed);
    expect(box.open(sealed)).toBe('whsec_abc');
  });

  it('refuses tampered text and another purpose or master key', () => {
    const box = new AesGcmSecretBox(key, 'webhook-secret');
    const sealed = box.seal('s3cret');
    const i = sealed.length - 10;
    const tampered = sealed.slice(0, i) + (sealed[i] === 'A' ? 'B' : 'A') + sealed.slice(i + 1);
    expect(() => box.open(tampered)).toThrow();
    expect(() => new AesGcmSecretBox(key, 'evidence').open(sealed)).toThrow();
    expect(() => new AesGcmSecretBox(Buffer.alloc(32, 4), 'webhook-secret').open(sealed)).toThrow();
  });

  it('after a rotation opens what previous master keys sealed, and tells which sealed texts are current', () => {
    const old = new AesGcmSecretBox(key, 'webhook-secret');
    const sealedOld = old.seal('whsec_old');
    const rotated = new AesGcmSecretBox(Buffer.alloc(32, 9), 'webhook-secret', [key]);
    expect(rotated.open(sealedOld)).toBe('whsec_old');
    expect(rotated.isCurrent(sealedOld)).toBe(false);
    const sealedNew = rotated.seal('whsec_new');
    expect(rotated.isCurrent(sealedNew)).toBe(true);
    expect(() => old.open(sealedNew)).toThrow();
    expect(() => new AesGcmSecretBox(key, 'webhook-secret', [Buffer.alloc(16)])).toThrow(/32 bytes/);
  });
});
