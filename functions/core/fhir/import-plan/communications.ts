import { CONVERSATION_TEXT } from '../communications.js';
import { planCall, planFax, planFormResponse } from '../import-comms.js';
import type { BundleContext } from './context.js';
import type { Json, PlanOutcome } from './planned.js';
import { day, escapeHtml, text } from './read.js';

/**
 * A text with the patient becomes read-only history, signed: it was never sent from this practice's
 * numbers and belongs to none of its conversations. A text of a Tidewell conversation comes back as a
 * text (SMS), so the chart exports it again as it was; another system's text is a logged text (SMS_LOG).
 */
function planText(r: Json, { patientRefs }: BundleContext): PlanOutcome {
  const mediums = ((r.medium as Json[] | undefined) ?? []).flatMap((m) => (m.coding ?? []).map((c: Json) => c.code));
  const body = ((r.payload as Json[] | undefined) ?? []).map((p) => p.contentString).filter((t) => typeof t === 'string' && t.trim()).join('\n');
  const at = r.sent ?? r.received;
  const snippet = body.length > 60 ? `${body.slice(0, 57)}…` : body;
  const summary = `Text${day(at) ? ` on ${day(at)}` : ''}${snippet ? `: ${snippet}` : ''}`;
  if (!mediums.includes('SMSWRIT')) return { summary: `Communication: ${text(r.category?.[0]) ?? ''}`.trim(), reason: 'Only texts, calls and faxes are imported' };
  if (r.status !== 'completed') return { summary, reason: 'The text was not delivered' };
  if (!body) return { summary, reason: 'It has no text' };
  if (typeof at !== 'string' || Number.isNaN(Date.parse(at))) return { summary, reason: 'It has no date' };
  const direction = patientRefs.has(String(r.sender?.reference ?? '')) ? 'inbound' : 'outbound';
  const noteType = text(r.category?.[0]) === CONVERSATION_TEXT ? 'SMS' : 'SMS_LOG';
  return { summary, planned: { kind: 'note', noteType, status: 'DELIVERED', at, text: body, data: { text: body, formattedText: escapeHtml(body), direction, timestamp: new Date(at).toISOString() } } };
}

/** A Communication is a call, a fax or a text, by its medium. */
export function planCommunication(r: Json, bundle: BundleContext): PlanOutcome {
  const medium = ((r.medium as Json[] | undefined) ?? []).flatMap((m) => (m.coding ?? []).map((c: Json) => c.code));
  if (medium.includes('PHONE')) return planCall(r, bundle.comms, bundle.patientRefs);
  if (medium.includes('FAXWRIT')) return planFax(r, bundle.comms);
  return planText(r, bundle);
}

export const planQuestionnaireResponse = (r: Json, bundle: BundleContext): PlanOutcome => planFormResponse(r, bundle.comms);
