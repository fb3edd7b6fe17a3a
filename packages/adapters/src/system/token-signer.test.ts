import { describe, expect, it } from 'vitest';
import { TokenSigner } from './node-secrets.js';

describe('TokenSigner', () => {
  const signer = new TokenSigner(Buffer.alloc(32, 5));

  it('verifies its own tokens for their purpose only', () => {
    const t = signer.sign('ten_1|evd_1|1|1790000000000', 'download');
    expect(signer.verify(t, 'download')).toBe('ten_1|evd_1|1|1790000000000');
    expect(signer.verify(t, 'upload')).toBeNull();
    expect(new TokenSigner(Buffer.alloc(32, 6)).verify(t, 'download')).toBeNull();
  });

  it('refuses every single-character change, including the spare bits of the last base64 character', () => {
    const t = signer.sign('ten_1|evd_1|1|1790000000000', 'download');
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    for (let i = 0; i < t.length; i++) {
      if (t[i] === '.') continue;
      for (const c of alphabet) {
        if (c === t[i]) continue;
        const altered = t.slice(0, i) + c + t.slice(i + 1);
        expect(signer.verify(altered, 'download'), `${i}:${c}`).toBeNull();
      }
    }
  });
});
