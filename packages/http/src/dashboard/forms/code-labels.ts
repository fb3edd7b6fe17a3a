import { NLRD_MEANINGS, type NlrdField } from '@fundi/domain/learners';

/**
 * What each NLRD / QCTO code means, as the learner form offers it: a choice shows the meaning beside the code, so
 * nobody has to know that province 5 is KwaZulu-Natal. The codes and meanings are the domain's (`NLRD_MEANINGS`),
 * the same table the imports read.
 */
export const CODE_LABELS: { readonly [F in NlrdField]: Readonly<Record<string, string>> } = NLRD_MEANINGS;

/** "KwaZulu-Natal (5)": the meaning first, the code the regulator's file carries after it. */
export function codeLabel(f: NlrdField, code: string | null | undefined): string {
  if (!code) return '-';
  const meaning = CODE_LABELS[f][code];
  return meaning && meaning !== code ? `${meaning} (${code})` : code;
}
