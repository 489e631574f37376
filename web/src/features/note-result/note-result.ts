import { LAB_INVOICE_HINT, LAB_ORDER_IN_CHART_HINT } from '../../../../shared/labs/lab-format.js';
import type { PartnerAppList } from '../../../../shared/partners/partner-schema.js';

/** Spec shell §2.5 texts and timing. */
export const NOTE_RESULT_CLOSE_DELAY_MS = 2_000;

export interface NoteResultContent {
  heading: string;
  /** Null while it is not known yet which text is true (a lab's hint waits for the practice's apps). */
  text: string | null;
}

/**
 * Whether the practice has a core product (a membership origin), or undefined while that is not
 * known. A failed look-up counts as none: the lab note in the chart exists either way.
 */
export function coreProductFrom(status: 'pending' | 'success' | 'error', apps: PartnerAppList | undefined): boolean | undefined {
  if (status === 'pending') return undefined;
  return Boolean(apps?.membership);
}

/**
 * Null when nothing is shown (the order was cancelled). A lab's hint is the spec's when the core
 * product provides the invoice, and otherwise says where the order is in Tidewell.
 */
export function noteResultContent(type: string | null, responseCode: string | null, coreProduct: boolean | undefined): NoteResultContent | null {
  if (responseCode === 'canceled') return null;
  if (type === 'lab') {
    return { heading: 'Order submitted!', text: coreProduct === undefined ? null : coreProduct ? LAB_INVOICE_HINT : LAB_ORDER_IN_CHART_HINT };
  }
  return {
    heading: 'Success!',
    text: 'If this screen is showing after ordering a lab, it may take up to 10 minutes for the lab to show in the patient chart.',
  };
}
