/** An error answer of either form, as far as `fields` reads it (docs/api.md, "Errors"). */
export interface ErrorBody {
  error?: { details?: unknown; errors?: { field: string; reason: string }[] };
}

/** How each API form answers, so one HTTP suite can run against Form A and both Form B mounts. */
export interface FormUnderTest {
  name: string;
  learners(slug: string): string;
  invalidStatus: number;
  codes: {
    invalid: string;
    unauthorized: string;
    forbidden: string;
    notFound: string;
    conflict: string;
    rateLimited: string;
  };
  /** Every failing field an error body names. */
  fields(body: ErrorBody): string[];
}

const A_CODES = {
  invalid: 'validation_error',
  unauthorized: 'unauthorized',
  forbidden: 'forbidden',
  notFound: 'not_found',
  conflict: 'conflict',
  rateLimited: 'rate_limited',
};
const B_CODES = {
  invalid: 'VALIDATION_ERROR',
  unauthorized: 'UNAUTHORIZED',
  forbidden: 'FORBIDDEN',
  notFound: 'NOT_FOUND',
  conflict: 'CONFLICT',
  rateLimited: 'RATE_LIMITED',
};

function fieldsA(body: ErrorBody): string[] {
  const details = body?.error?.details;
  if (!Array.isArray(details)) throw new Error(`Form A details must be an array: ${JSON.stringify(body)}`);
  return details.map((d: { field: string; message: string }) => {
    if (typeof d.message !== 'string') throw new Error('Form A detail without message');
    return d.field;
  });
}

function fieldsB(body: ErrorBody): string[] {
  const d = body?.error?.details;
  if (typeof d !== 'object' || d === null || Array.isArray(d))
    throw new Error(`Form B details must be an object: ${JSON.stringify(body)}`);
  const field = 'field' in d ? d.field : undefined;
  const all =
    body.error?.errors ?? (field ? [{ field: String(field), reason: 'reason' in d ? d.reason : undefined }] : []);
  if (all.length && all[0]!.field !== field) throw new Error('Form B details must be the first of errors');
  if (all.some((e) => typeof e.reason !== 'string')) throw new Error('Form B detail without reason');
  return all.map((e) => e.field);
}

export const FORM_A: FormUnderTest = {
  name: 'Form A',
  learners: () => '/api/v1/learners',
  invalidStatus: 422,
  codes: A_CODES,
  fields: fieldsA,
};
export const FORM_B_API: FormUnderTest = {
  name: 'Form B /api/v1/tenants',
  learners: (slug) => `/api/v1/tenants/${slug}/learners`,
  invalidStatus: 400,
  codes: B_CODES,
  fields: fieldsB,
};
export const FORM_B_V1: FormUnderTest = {
  name: 'Form B /v1/tenants',
  learners: (slug) => `/v1/tenants/${slug}/learners`,
  invalidStatus: 400,
  codes: B_CODES,
  fields: fieldsB,
};
export const FORMS: readonly FormUnderTest[] = [FORM_A, FORM_B_API, FORM_B_V1];
