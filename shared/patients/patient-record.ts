import * as z from '../zod.js';
import { MEMBERSHIP_STATUSES, PATIENT_GENDERS, PATIENT_STATUSES, PHONE_TYPES } from '../constants/patients.js';

// Apart from the input schemas: every group that reads a patient record parses it with this one,
// and only the patients group needs the rest.

const Coded = z.object({ system: z.string(), code: z.string(), display: z.optional(z.string()) });
/** Race or ethnicity as US Core writes it: OMB category codes (CDC Race & Ethnicity), finer codes, and the words the patient gave. */
const Category = z.object({ omb: z.optional(z.array(Coded)), detailed: z.optional(z.array(Coded)), text: z.optional(z.string()) });
/**
 * What another system's record says of the patient that Tidewell's form does not ask: race,
 * ethnicity, sex assigned at birth (US Core extensions) and the identifiers other systems file the
 * patient under (an MRN with its system). Kept as the import found it and written back in an export.
 */
export const PatientDemographics = z.object({
  race: z.optional(Category),
  ethnicity: z.optional(Category),
  /** US Core birth sex: F, M, or UNK (unknown). */
  birthSex: z.optional(z.enum(['F', 'M', 'UNK'])),
  identifiers: z.optional(
    z.array(z.object({ system: z.optional(z.string()), value: z.string(), type: z.optional(z.string()), label: z.optional(z.string()) })),
  ),
});
export type PatientDemographics = z.infer<typeof PatientDemographics>;

/** Stored and returned shape. Tolerant on read: the input rules apply on write. */
export const Patient = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  middleName: z.optional(z.string()),
  chosenFirstName: z.optional(z.string()),
  chosenLastName: z.optional(z.string()),
  dob: z.optional(z.string()),
  gender: z.optional(z.enum(PATIENT_GENDERS)),
  email: z.optional(z.string()),
  phones: z.optional(z.array(z.object({ type: z.enum(PHONE_TYPES), number: z.string() }))),
  primaryPhoneNumber: z.optional(z.string()),
  address: z.optional(
    z.object({
      line1: z.optional(z.string()),
      line2: z.optional(z.string()),
      city: z.optional(z.string()),
      state: z.optional(z.string()),
      zip: z.optional(z.string()),
    }),
  ),
  healthInsurance: z.optional(
    z.object({
      payerName: z.optional(z.string()),
      memberId: z.optional(z.string()),
      groupId: z.optional(z.string()),
      payerPhoneNumber: z.optional(z.string()),
    }),
  ),
  emergencyContact: z.optional(z.object({ name: z.optional(z.string()), phoneNumber: z.optional(z.string()) })),
  preferredPharmacy: z.optional(z.string()),
  hipaaAuthorizationAccepted: z.optional(z.boolean()),
  practitioner: z.optional(z.object({ name: z.optional(z.string()) })),
  demographics: z.optional(PatientDemographics),
  membershipStatus: z.enum(MEMBERSHIP_STATUSES),
  status: z.enum(PATIENT_STATUSES),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Patient = z.infer<typeof Patient>;
