import { normalizePhone } from '../../../../shared/patients/phone.js';
import { CONVERSATION_TEXT, TEXT_NUMBERS_EXTENSION } from '../communications.js';
import { planCall, planFax, planFormResponse } from '../import-comms.js';
import type { BundleContext } from './context.js';
import type { Json, PlanOutcome } from './planned.js';
import { day, escapeHtml, text } from './read.js';

/** The practice's and the patient's number a Tidewell conversation text names (TEXT_NUMBERS_EXTENSION), when it names both. */
function numbersOf(r: Json): { practicePhone: string; patientPhone: string } | undefined {
  const parts: Json[] = ((r.extension as Json[] | undefined) ?? []).find((x) => x?.url === TEXT_NUMBERS_EXTENSION)?.extension ?? [];
  const number = (url: string) => {
    const value = parts.find((x) => x?.url === url)?.valueContactPoint?.value;
    return typeof value === 'string' ? normalizePhone(value) : null;
  };
  const [practicePhone, patientPhone] = [number('practice'), number('patient')];
  return practicePhone && patientPhone ? { practicePhone, patientPhone } : undefined;
}

/**
 * A text with the patient becomes read-only history, signed. A text of a Tidewell conversation comes
 * back as a text (SMS), so the chart exports it again as it was, with the conversation's numbers: a
 * practice restored from its export puts it back in that conversation. Another system's text is a
 * logged text (SMS_LOG), in no conversation.
 */
function planText(r: Json, { patientRefs }: BundleContext): PlanOutcome {
  const mediums = ((r.medium as Json[] | undefined) ?? []).flatMap((m) => (m.coding ?? []).map((c: Json) => c.code));
  const body = ((r.payload as Json[] | undefined) ?? [])
    .map((p) => p.contentString)
    .filter((t) => typeof t === 'string' && t.trim())
    .join('\n');
  const at = r.sent ?? r.received;
  const snippet = body.length > 60 ? `${body.slice(0, 57)}…` : body;
  const summary = `Text${day(at) ? ` on ${day(at)}` : ''}${snippet ? `: ${snippet}` : ''}`;
  if (!mediums.includes('SMSWRIT'))
    return { summary: `Communication: ${text(r.category?.[0]) ?? ''}`.trim(), reason: 'Only texts, calls and faxes are imported' };
  if (r.status !== 'completed') return { summary, reason: 'The text was not delivered' };
  if (!body) return { summary, reason: 'It has no text' };
  if (typeof at !== 'string' || Number.isNaN(Date.parse(at))) return { summary, reason: 'It has no date' };
  const direction = patientRefs.has(String(r.sender?.reference ?? '')) ? 'inbound' : 'outbound';
  const noteType = text(r.category?.[0]) === CONVERSATION_TEXT ? 'SMS' : 'SMS_LOG';
  const numbers = noteType === 'SMS' ? numbersOf(r) : undefined;
  return {
    summary,
    planned: {
      kind: 'note',
      noteType,
      status: 'DELIVERED',
      at,
      text: body,
      data: { text: body, formattedText: escapeHtml(body), direction, timestamp: new Date(at).toISOString() },
      ...(numbers ? { texting: numbers } : {}),
    },
  };
}

/** A Communication is a call, a fax or a text, by its medium. */
export function planCommunication(r: Json, bundle: BundleContext): PlanOutcome {
  const medium = ((r.medium as Json[] | undefined) ?? []).flatMap((m) => (m.coding ?? []).map((c: Json) => c.code));
  if (medium.includes('PHONE')) return planCall(r, bundle.comms, bundle.patientRefs);
  if (medium.includes('FAXWRIT')) return planFax(r, bundle.comms);
  return planText(r, bundle);
}

export const planQuestionnaireResponse = (r: Json, bundle: BundleContext): PlanOutcome => planFormResponse(r, bundle.comms);
