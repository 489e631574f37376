import * as z from '../zod.js';
import { isCalendarDate, isMonthYear, RX_INSTRUCTIONS_MAX, RX_MAX_COUNT, RX_MESSAGES } from './rx.js';

/**
 * The prescription window's fields as a schema: loaded by the window and by the API's prescription
 * code (a lazy chunk), never by the notes group's cold start.
 */
const emptyToUndefined = (v: unknown) => (v === null || v === '' ? undefined : v);
const optionalDate = (label: string) =>
  z.pipe(
    z.transform(emptyToUndefined),
    z.optional(z.string({ error: RX_MESSAGES.dateFormat(label) }).check(z.refine(isCalendarDate, RX_MESSAGES.dateFormat(label)))),
  );
const optionalMonth = (label: string) =>
  z.pipe(
    z.transform(emptyToUndefined),
    z.optional(z.string({ error: RX_MESSAGES.monthFormat(label) }).check(z.refine(isMonthYear, RX_MESSAGES.monthFormat(label)))),
  );
const count = (min: number, message: string) => z.number({ error: message }).check(z.int(message), z.gte(min, message), z.lte(RX_MAX_COUNT));
const optionalText = (max = 200) => z.pipe(z.transform(emptyToUndefined), z.optional(z.string().check(z.trim(), z.maxLength(max))));

/** What the prescription window sends; the server fills the medication, NDC and prices from the inventory item. */
export const RxInput = z.object({
  inventoryId: z.string({ error: RX_MESSAGES.inventoryRequired }).check(z.trim(), z.minLength(1, RX_MESSAGES.inventoryRequired), z.maxLength(100)),
  providerId: z.string({ error: RX_MESSAGES.prescriberRequired }).check(z.trim(), z.minLength(1, RX_MESSAGES.prescriberRequired), z.maxLength(100)),
  quantityPrescribed: count(1, RX_MESSAGES.quantityMin),
  daysOfTreatment: count(1, RX_MESSAGES.daysMin),
  numberOfRefills: count(0, RX_MESSAGES.refillsMin),
  instructions: z.pipe(
    z.transform((v) => (v == null ? '' : v)),
    z.string().check(z.maxLength(RX_INSTRUCTIONS_MAX, RX_MESSAGES.instructionsMax)),
  ),
  frequency: z.string({ error: RX_MESSAGES.frequencyRequired }).check(z.trim(), z.minLength(1, RX_MESSAGES.frequencyRequired), z.maxLength(100)),
  datePrescribed: optionalDate('Date prescribed'),
  dateFulfilled: optionalDate('Date fulfilled'),
  useByDate: optionalDate('Use by date'),
  lotNumber: optionalText(50),
  lotExpiration: optionalMonth('Lot expiration'),
  expiration: optionalMonth('Expiration'),
  daw: z.optional(z.boolean()),
  icD9Code: optionalText(50),
});
export type RxInput = z.infer<typeof RxInput>;

/** The first field problem of a prescription, or null. */
export function rxProblem(data: unknown): { message: string; field: string } | null {
  const parsed = RxInput.safeParse(data);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0]!;
  return { message: issue.message, field: String(issue.path[0] ?? 'data') };
}
