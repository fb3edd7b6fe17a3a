/**
 * The text fields of a multipart upload whose parts may come in any order. `early` holds the fields sent before
 * the file part when they alone make a valid request (the fields came first), so they may refuse the upload before
 * a byte is stored; null when some are still to come. `all` resolves with every field, validated, once the request
 * body has ended: with `early` itself when nothing followed the file part. A use case awaits `all` after storing
 * the file and, on any refusal, removes what it stored.
 */
export class UploadFields<T> {
  readonly all: Promise<T>;
  constructor(
    readonly early: T | null,
    all: Promise<T>,
  ) {
    this.all = all;
    // Not every caller awaits `all` (an early refusal does not): its failure is theirs to read, never unhandled.
    all.catch(() => {});
  }

  /**
   * The order every upload keeps: `check` the early fields (a refusal `abandon`s the unread file), `store` the file,
   * then `check` every field if more came after the file (a refusal `undo`es the store, so nothing is kept).
   */
  async checkAround<C, S>(o: {
    check(fields: T): C | Promise<C>;
    store(): Promise<S>;
    abandon(): void;
    undo(): Promise<unknown>;
  }): Promise<{ checked: C; stored: S }> {
    let checked: { value: C } | null = null;
    if (this.early) {
      try {
        checked = { value: await o.check(this.early) };
      } catch (e) {
        o.abandon();
        throw e;
      }
    }
    const stored = await o.store();
    try {
      const all = await this.all;
      if (!checked || all !== this.early) checked = { value: await o.check(all) };
    } catch (e) {
      await o.undo().catch(() => {});
      throw e;
    }
    return { checked: checked.value, stored };
  }

  /** Fields known in full before the file (a caller that is not a multipart request). */
  static known<T>(fields: T): UploadFields<T> {
    return new UploadFields(fields, Promise.resolve(fields));
  }

  /** `fields` as upload fields: plain fields are known in full before the file. */
  static of<T>(fields: T | UploadFields<T>): UploadFields<T> {
    return fields instanceof UploadFields ? fields : UploadFields.known(fields);
  }
}
