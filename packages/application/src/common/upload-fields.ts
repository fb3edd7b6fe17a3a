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

  /** Fields known in full before the file (a caller that is not a multipart request). */
  static known<T>(fields: T): UploadFields<T> {
    return new UploadFields(fields, Promise.resolve(fields));
  }

  /** `fields` as upload fields: plain fields are known in full before the file. */
  static of<T>(fields: T | UploadFields<T>): UploadFields<T> {
    return fields instanceof UploadFields ? fields : UploadFields.known(fields);
  }
}
