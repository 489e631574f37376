import { MedicationFields, MedicationInput } from '../../shared/chart/sections.js';
import * as z from '../../shared/zod.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { ValidationError } from '../lib/errors.js';
import { createSectionItemFrom, parseOrThrow } from '../core/chart/section-crud.js';
import { MEDICATIONS } from '../core/chart/sections.js';

const PrescriptionExtras = z.object({
  daysOfTreatment: z.pipe(
    z.transform((v) => (v === null || v === '' ? undefined : typeof v === 'string' ? Number(v) : v)),
    z.optional(z.number({ error: 'daysOfTreatment must be a non-negative number' }).check(z.int(), z.gte(0))),
  ),
});

function addDays(iso: string, days: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/**
 * POST /v2/patients/{id}/medication { patientId, data }: a medication added from a note or a
 * prescription. Spec §3 defaults when it comes from a prescription note (data.noteId): route OR,
 * transmission method History, end = start + daysOfTreatment.
 */
export async function addMedicationFromNote(auth: AuthContext, patientId: string, body: { patientId?: string; data: Record<string, unknown> }) {
  if (body.patientId && body.patientId !== patientId) {
    throw new ValidationError('patientId: does not match the patient in the path', { patientId: 'does not match the patient in the path' });
  }
  const prefix = (error: unknown): never => {
    if (error instanceof ValidationError) {
      throw new ValidationError(`data.${error.message}`, Object.fromEntries(Object.entries(error.fieldErrors).map(([k, v]) => [`data.${k}`, v])));
    }
    throw error;
  };
  let input: MedicationInput;
  try {
    const fields = parseOrThrow(z.partial(MedicationFields), body.data);
    const { daysOfTreatment } = parseOrThrow(PrescriptionExtras, body.data);
    const fromNote = !!fields.noteId;
    const start = fields.start || undefined;
    input = parseOrThrow(MedicationInput, {
      ...body.data,
      ...(fromNote ? { routeOfAdministration: fields.routeOfAdministration || 'OR', transmissionMethod: fields.transmissionMethod || 'History' } : {}),
      ...(start && daysOfTreatment !== undefined && !fields.end ? { end: addDays(start, daysOfTreatment) } : {}),
    });
  } catch (error) {
    return prefix(error);
  }
  return createSectionItemFrom(auth, MEDICATIONS, patientId, input);
}
