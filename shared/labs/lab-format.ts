/** Lab values as the result table, the trend, the PDF and the templates show them; no zod, so the templates' module stays light. */

/** One result line (spec notes §2 Lab result item). */
export interface LabResultItem {
  id: string;
  text: string;
  code: string;
  codeText?: string;
  /** HL7 v3 ObservationInterpretation: N, H, L, HH, LL, A, AA. */
  interpretation?: string;
  issued?: string;
  ranges?: { low?: number; high?: number }[];
  valueQuantity?: { value: number; unit?: string };
  valueString?: string;
  subject?: string;
  performer?: string;
  /** The DiagnosticReport (panel) the line belongs to. */
  reportId?: string;
  panel?: string;
}

/** Spec shell §9: 1000 or more no decimals, 10 or more one, 1 or more two, below 1 three. */
export function formatLabNumber(value: number): string {
  const size = Math.abs(value);
  const digits = size >= 1000 ? 0 : size >= 10 ? 1 : size >= 1 ? 2 : 3;
  return value.toFixed(digits);
}

/** Only numeric values are trended (spec chart-data: lab values shown only if numeric). */
export function numericLabValue(item: Pick<LabResultItem, 'valueQuantity' | 'valueString'>): number | null {
  const v = item.valueQuantity?.value;
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  return null;
}

const ABNORMAL = new Set(['H', 'L', 'HH', 'LL', 'A', 'AA', 'HU', 'LU', '>', '<']);

/** Out of range by the lab's interpretation, or by its reference range when it sent none. */
export function labAbnormality(item: Pick<LabResultItem, 'interpretation' | 'valueQuantity' | 'ranges'>): 'high' | 'low' | 'abnormal' | null {
  const code = item.interpretation?.toUpperCase();
  if (code && ABNORMAL.has(code)) return code.startsWith('H') || code === '>' ? 'high' : code.startsWith('L') || code === '<' ? 'low' : 'abnormal';
  if (code === 'N') return null;
  const value = item.valueQuantity?.value;
  const range = item.ranges?.[0];
  if (typeof value !== 'number' || !range) return null;
  if (typeof range.high === 'number' && value > range.high) return 'high';
  if (typeof range.low === 'number' && value < range.low) return 'low';
  return null;
}

export function labRangeText(item: Pick<LabResultItem, 'ranges'>): string {
  const r = item.ranges?.[0];
  if (!r) return '';
  if (typeof r.low === 'number' && typeof r.high === 'number') return `${r.low}–${r.high}`;
  if (typeof r.low === 'number') return `≥ ${r.low}`;
  if (typeof r.high === 'number') return `≤ ${r.high}`;
  return '';
}

export function labValueText(item: Pick<LabResultItem, 'valueQuantity' | 'valueString'>): string {
  if (item.valueQuantity && typeof item.valueQuantity.value === 'number')
    return `${item.valueQuantity.value}${item.valueQuantity.unit ? ` ${item.valueQuantity.unit}` : ''}`;
  return item.valueString ?? '';
}

/** Spec shell §9: the lab table leaves out deleted notes and orders still at the lab (SENT); newest first. */
export function labTableNotes<N extends { noteType: string; status: string; eventTimestamp: string }>(notes: readonly N[]): N[] {
  return notes
    .filter((n) => n.noteType === 'LAB' && n.status !== 'DELETED' && n.status !== 'SENT')
    .sort((a, b) => b.eventTimestamp.localeCompare(a.eventTimestamp));
}

/** Spec shell §2.5: the lab result screen's hint when the core product holds the patient's invoice. */
export const LAB_INVOICE_HINT = 'To find the invoice, click on "View Invoice" in the patient\'s card';
/**
 * The same screen's hint when the practice has no core product: nothing here holds an invoice, and the
 * order, with the payment status the lab reports, is the Lab Order note in the patient's chart.
 */
export const LAB_ORDER_IN_CHART_HINT = "The order and its payment status are in its Lab Order note in the patient's chart.";
/** Spec notes §5 Lab payment: on FAILED the billing system may not have charged the patient. */
export const LAB_PAYMENT_FAILED = 'The billing system may not have charged the patient. Check the upcoming invoice.';

/** What the lab note and its report say about the payment: the FAILED text, or nothing. */
export function labPaymentNotice(status: string | undefined): string | null {
  return status === 'FAILED' ? LAB_PAYMENT_FAILED : null;
}
