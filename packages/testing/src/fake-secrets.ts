import { createHash } from 'node:crypto';
import type { SecretGenerator } from '@fundi/domain';

/** Deterministic secrets: `fnd_test_1_...`, `fnd_test_2_...`, ... hashed by prefixing `h:`. */
export function fakeSecrets(): SecretGenerator {
  let n = 0;
  return {
    newApiKey() {
      const key = `fnd_test_${++n}_0123456789abcdef`;
      return { key, prefix: key.slice(0, 10), hash: `h:${key}` };
    },
    hash: (s) => `h:${s}`,
  };
}

/** Fake keys like `fakeSecrets`, but a real SHA-256 hash (hex), for use cases that order or seed by hashes. */
export function sha256Secrets(): SecretGenerator {
  return { ...fakeSecrets(), hash: (s) => createHash('sha256').update(s).digest('hex') };
}
