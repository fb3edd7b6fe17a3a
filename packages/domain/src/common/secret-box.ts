/**
 * Port: authenticated encryption of small secrets at rest (webhook signing secrets now, file data keys later).
 * `seal` output is opaque text safe to store; `open` throws on tampering or on a box keyed differently.
 */
export interface SecretBox {
  seal(plaintext: string): string;
  open(sealed: string): string;
  /** Whether `sealed` was sealed under the current master key (after a rotation, seal it again). */
  isCurrent(sealed: string): boolean;
}
