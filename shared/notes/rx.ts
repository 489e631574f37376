import { NOTE_MESSAGES } from './note-constants.js';

export { maySignPrescription } from './rx-signing.js';

/**
 * In-house prescriptions (RX notes, spec notes §3, §5, §6, §9): a medication dispensed from the
 * practice's own inventory. The window and the API share these rules and messages.
 */

/** Spec notes §9: Rx instructions at most 79 characters. */
export const RX_INSTRUCTIONS_MAX = 79;
/** Spec shell §9 / chart-data §9: at most 3 prescribers offered. */
export const MAX_PRESCRIBERS = 3;
/** Not fixed by the spec: a bound on one prescription's quantity, refills and days. */
export const RX_MAX_COUNT = 9999;

export const PRESCRIBER_TYPES = ['Provider', 'PA', 'PASupervised'] as const;
export const POB_TYPES = ['POBNoReview', 'POBSomeReview', 'POBAllReview'] as const;
export type PrescriberUserType = 'Provider' | 'PA' | 'PASupervised' | 'POBNoReview' | 'POBSomeReview' | 'POBAllReview' | 'StaffUser';

export const RX_MESSAGES = {
  inventoryRequired: 'Please select a medication from the inventory',
  inventoryUnavailable: 'This inventory item cannot be prescribed: it is hidden, expired or has no NDC.',
  quantityMin: 'Quantity must be at least 1',
  daysMin: 'Days of treatment must be at least 1',
  refillsMin: 'Refills must be 0 or more',
  instructionsMax: `Instructions must be at most ${RX_INSTRUCTIONS_MAX} characters`,
  frequencyRequired: 'Frequency is required',
  dateFormat: (label: string) => `${label} must be a date in mm/dd/yyyy format`,
  monthFormat: (label: string) => `${label} must be in mm/yyyy format`,
  prescriberRequired: 'Please select a prescriber',
  prescriberInvalid: 'The selected prescriber cannot prescribe',
  onBehalfOfRequired: 'On behalf of is required',
  cannotPrescribe: 'Your e-prescribing user type cannot prescribe.',
  awaitingApproval: "This prescription is waiting for the provider's approval.",
  approvalOnlyProvider: 'Only the provider this prescription was written on behalf of can approve it.',
  sentForApproval: 'Prescription sent to the provider for approval.',
  signedReadOnly: NOTE_MESSAGES.rxSignedReadOnly,
  notEnoughStock: (name: string, quantity: number) => `There is not enough ${name} in stock to dispense ${quantity}. Reload the inventory and try again.`,
  restocking: 'Restocking medication',
  restocked: 'Medication restocked!',
  restockFailed: (name: string, quantity: number) =>
    `The medication was not restocked. Open the inventory item ${name} and add back the prescribed quantity (${quantity}) by hand.`,
  restockLabel: 'Restock inventory items',
  restockReason: 'Interaction delete restock',
  dispenseReason: 'Dispensed on prescription',
  restoreReason: 'Interaction restore',
  restoreStockGone: (name: string, quantity: number, inStock: number) =>
    `The prescription cannot be restored: its quantity (${quantity}) was put back in stock when it was deleted, and only ${inStock} ${name} ${inStock === 1 ? 'is' : 'are'} in stock now. Add the stock back first.`,
  onBehalfOfLabel: 'On behalf of',
} as const;

const MMDDYYYY = /^(0[1-9]|1[0-2])\/(0[1-9]|[12]\d|3[01])\/\d{4}$/;
const MMYYYY = /^(0[1-9]|1[0-2])\/\d{4}$/;

export const isMonthYear = (v: string): boolean => MMYYYY.test(v);
export function isCalendarDate(v: string): boolean {
  if (!MMDDYYYY.test(v)) return false;
  const [m, d, y] = v.split('/').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** A month-year 'mm/yyyy' that is before the current month. */
export function isExpiredMonth(mmYyyy: string | null | undefined, on: Date = new Date()): boolean {
  if (!mmYyyy || !MMYYYY.test(mmYyyy)) return false;
  const [m, y] = mmYyyy.split('/').map(Number) as [number, number];
  return y * 12 + m < on.getFullYear() * 12 + (on.getMonth() + 1);
}

/** Spec notes §5: the selector offers items that are not expired, not hidden and have an NDC. */
export function isPrescribable(item: { isHidden: boolean; ndcNumber?: string | null; expirationDate?: string | null }, on: Date = new Date()): boolean {
  return !item.isHidden && !!item.ndcNumber?.trim() && !isExpiredMonth(item.expirationDate, on);
}

export interface PrescriberCandidate {
  userId: string;
  name: string;
  npiNumber?: string | null;
  veradigmUserType?: string | null;
  permissionGroup: string;
  userStatus?: string;
}

/**
 * Spec notes §6, shell §6: users with an NPI (not employee, not no_access, not deleted) or a user type of
 * Provider, PA or PASupervised; at most 3; the patient's practitioner first when there is one.
 */
export function prescriberChoices<U extends PrescriberCandidate>(users: readonly U[], practitionerName?: string | null): U[] {
  const eligible = users.filter((u) => canBePrescriber(u));
  // The chart names its primary provider (practitioner.name), not a user id.
  const first = (u: U) => !!practitionerName && u.name.trim().toLowerCase() === practitionerName.trim().toLowerCase();
  const sorted = [...eligible].sort((a, b) => (first(a) ? -1 : first(b) ? 1 : a.name.localeCompare(b.name)));
  return sorted.slice(0, MAX_PRESCRIBERS);
}

export function canBePrescriber(u: PrescriberCandidate): boolean {
  if (u.userStatus === 'deleted' || u.permissionGroup === 'no_access') return false;
  if (u.veradigmUserType === 'StaffUser') return false;
  if ((PRESCRIBER_TYPES as readonly string[]).includes(u.veradigmUserType ?? '')) return true;
  return !!u.npiNumber && u.permissionGroup !== 'employee';
}

export const isPobType = (t: string | null | undefined): boolean => (POB_TYPES as readonly string[]).includes(t ?? '');

/** mm/dd/yyyy of a date, in UTC. */
export function toMmDdYyyy(d: Date): string {
  return `${String(d.getUTCMonth() + 1).padStart(2, '0')}/${String(d.getUTCDate()).padStart(2, '0')}/${d.getUTCFullYear()}`;
}
