import type { LearnerSnapshot } from '@fundi/domain/learners';

export type LearnerView = Omit<LearnerSnapshot, 'tenantId'>;

/**
 * The learner as callers and subscribers see it: everything but the tenant id, identity fields first. Written
 * out as one literal (the compiler checks it is complete): a rest-spread copy of this wide object costs ten times
 * more, and lists make a hundred of them per request.
 */
export function learnerView(l: LearnerSnapshot): LearnerView {
  return {
    id: l.id,
    firstName: l.firstName,
    lastName: l.lastName,
    idNumber: l.idNumber,
    alternateId: l.alternateId,
    alternateIdType: l.alternateIdType,
    dateOfBirth: l.dateOfBirth,
    gender: l.gender,
    citizenship: l.citizenship,
    middleName: l.middleName,
    email: l.email,
    mobile: l.mobile,
    phone: l.phone,
    title: l.title,
    equityCode: l.equityCode,
    nationalityCode: l.nationalityCode,
    homeLanguageCode: l.homeLanguageCode,
    citizenResidentStatusCode: l.citizenResidentStatusCode,
    socioeconomicStatusCode: l.socioeconomicStatusCode,
    disabilityStatusCode: l.disabilityStatusCode,
    disabilityRating: l.disabilityRating,
    immigrantStatus: l.immigrantStatus,
    homeAddress: l.homeAddress,
    postalAddress: l.postalAddress,
    provinceCode: l.provinceCode,
    statssaAreaCode: l.statssaAreaCode,
    popiActAgree: l.popiActAgree,
    popiActDate: l.popiActDate,
    employer: l.employer,
    employeeRef: l.employeeRef,
    department: l.department,
    jobTitle: l.jobTitle,
    whatsappConsent: l.whatsappConsent,
    whatsappConsentAt: l.whatsappConsentAt,
    emailOptOut: l.emailOptOut,
    contactUpdateNeeded: l.contactUpdateNeeded,
    createdAt: l.createdAt,
    updatedAt: l.updatedAt,
  };
}

/** The view's fields in the order `learnerView` writes them (what a JSON writer of the view follows). */
export const LEARNER_VIEW_FIELDS: readonly (keyof LearnerView)[] = Object.keys(
  learnerView({} as LearnerSnapshot),
) as (keyof LearnerView)[];
