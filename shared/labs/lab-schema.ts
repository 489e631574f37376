import * as z from '../zod.js';
import type { LabResultItem } from './lab-format.js';

export * from './lab-format.js';
import { LAB_INVOICE_HINT, LAB_ORDER_IN_CHART_HINT, LAB_PAYMENT_FAILED } from './lab-format.js';

/**
 * Labs (spec notes §2–§9 LAB, shell §2.6 Lab Order, §9 lab formatting): a LAB note orders tests
 * from the lab provider (Health Gorilla, FHIR R4) and holds the results it sends back.
 */

export const LAB_MESSAGES = {
  missingProviderResourceId: 'Missing lab provider resource id',
  pdfError: 'There was an error fetching your pdf, please try again',
  paymentFailed: LAB_PAYMENT_FAILED,
  invoiceHint: LAB_INVOICE_HINT,
  orderInChartHint: LAB_ORDER_IN_CHART_HINT,
  noTests: 'Choose at least one test',
  noPatient: 'Choose a patient before ordering',
  alreadyOrdered: 'This lab has already been ordered',
  notConfigured: 'Lab ordering is not set up for this practice',
  notLab: 'Only a lab note can be ordered',
  providerRefused: 'The lab provider refused the order',
  providerUnavailable: 'The lab provider could not be reached; try again',
  imported: 'An imported lab report is a record of results and cannot be ordered',
  notADeliveredReport: 'Not a DiagnosticReport based on a RequestGroup',
  unknownToVendor: 'Health Gorilla has no such DiagnosticReport; nothing was applied',
} as const;

/** Shown wherever the local stand-in of npm start answers instead of Health Gorilla. */
export const LOCAL_LAB_PROVIDER_LABEL = "Health Gorilla's local stand-in";
export const LAB_PROVIDER_NAME = 'Health Gorilla';
/** The partner id Health Gorilla's notifications arrive under (partner secrets and deliveries). */
export const HEALTH_GORILLA_PARTNER_ID = 'health-gorilla';

export const PAYMENT_STATUSES = ['BILLED', 'PARTIAL', 'UNKNOWN', 'THIRD_PARTY', 'UNPAID', 'FAILED'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const ORDER_STATUSES = ['ordered', 'partial', 'final', 'cancelled'] as const;
export type LabOrderStatus = (typeof ORDER_STATUSES)[number];

/** The orderable panels: the LOINC panel code Health Gorilla's compendium orders them by. */
export const LAB_TESTS = [
  { code: '24323-8', display: 'Comprehensive metabolic panel (CMP)' },
  { code: '58410-2', display: 'Complete blood count (CBC) with automated differential' },
  { code: '57698-3', display: 'Lipid panel' },
  { code: '4548-4', display: 'Hemoglobin A1c' },
  { code: '3016-3', display: 'Thyroid stimulating hormone (TSH)' },
  { code: '51990-0', display: 'Basic metabolic panel (BMP)' },
  { code: '24356-8', display: 'Urinalysis, complete' },
  { code: '78012-2', display: 'Rapid strep test (group A Streptococcus antigen, throat)' },
  { code: '3024-7', display: 'Free thyroxine (free T4)' },
  { code: '62292-8', display: 'Vitamin D, 25-hydroxy' },
  { code: '2857-1', display: 'Prostate specific antigen (PSA)' },
  { code: '2132-9', display: 'Vitamin B12' },
  { code: '2276-4', display: 'Ferritin' },
] as const;
export type LabTestCode = (typeof LAB_TESTS)[number]['code'];
export const LAB_TEST_CODES = LAB_TESTS.map((t) => t.code) as [LabTestCode, ...LabTestCode[]];

/** The LAB note's data (spec notes §2 Lab). */
export interface LabNoteData {
  text?: string;
  /** LOINC codes of the tests ordered; an imported report's orders may name tests outside LAB_TESTS (by code, else by name). */
  tests?: (LabTestCode | (string & {}))[];
  orderedFrom?: string;
  labReferenceId?: string;
  actions?: { display: string }[];
  hgId?: string;
  reportId?: string;
  orderStatus?: LabOrderStatus;
  lastUpdated?: string;
  billedToCode?: string;
  billedToText?: string;
  delivery?: { valueBoolean?: boolean; url?: string }[];
  collectedAt?: string;
  insuranceCoding?: { display: string; code: string }[];
  paymentStatus?: PaymentStatus;
  payments?: { id: string; status: string }[];
  invoiceId?: string;
  orderingProvider?: { userId: string; name: string; resourceId: string };
  results?: LabResultItem[];
  local?: boolean;
  /** Brought in from a FHIR bundle: a record of results never ordered here, so it has no vendor order id. */
  source?: 'import';
  /** An imported order's test names, by the code in `tests`, for tests LAB_TESTS does not name. */
  testNames?: Record<string, string>;
  /** An imported report's conclusion, by the reportId of its results. */
  conclusions?: Record<string, string>;
}

export const LabOrderBody = z.object({
  noteVersion: z.number({ error: 'noteVersion is required' }).check(z.int(), z.nonnegative()),
  tests: z.array(z.enum(LAB_TEST_CODES, { error: 'Unknown test' })).check(z.minLength(1, LAB_MESSAGES.noTests), z.maxLength(LAB_TESTS.length)),
  /** The provider the order is placed for; the signed-in user when left out. */
  orderingProviderId: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(80))),
});
export type LabOrderBody = z.infer<typeof LabOrderBody>;

export const LabPrintQuery = z.object({ id: z.string().check(z.trim(), z.minLength(1), z.maxLength(80)) });
export const LabLinkParams = z.object({
  a: z.string().check(z.trim(), z.minLength(1), z.maxLength(80)),
  b: z.string().check(z.trim(), z.minLength(1), z.maxLength(40)),
});
export const LabLinkQuery = z.object({ timezoneOffset: z.optional(z.coerce.number().check(z.int(), z.gte(-840), z.lte(840))) });

/** One point of an analyte's trend (GET /v2/notes/labs/link/{patientId}/{code}). */
export interface LabTrendPoint {
  noteId: string;
  issued: string;
  /** The issued day in the caller's time zone (timezoneOffset, minutes as Date#getTimezoneOffset). */
  day: string;
  value: number;
  unit?: string;
  interpretation?: string;
  ranges?: { low?: number; high?: number }[];
}
export interface LabTrend {
  code: string;
  text: string;
  points: LabTrendPoint[];
}

export const PAYMENT_STATUS_LABEL: Record<PaymentStatus, string> = {
  BILLED: 'Billed',
  PARTIAL: 'Partially paid',
  UNKNOWN: 'Unknown',
  THIRD_PARTY: 'Billed to a third party',
  UNPAID: 'Unpaid',
  FAILED: 'Payment failed',
};
