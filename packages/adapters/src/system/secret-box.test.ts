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
});
