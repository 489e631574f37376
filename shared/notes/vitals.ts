import * as z from '../zod.js';
import { ageOn } from '../rules/dates.js';
import { keptConfirmations, type VitalsConfirmations } from './vitals-ranges.js';

/** Vitals fields with their display units (spec notes §3, §5; units temp °F, height in, weight lb, head circumference in). */
export const VITALS_FIELDS = [
  { key: 'systolic', label: 'Systolic', unit: 'mmHg' },
  { key: 'diastolic', label: 'Diastolic', unit: 'mmHg' },
  { key: 'heartRate', label: 'Heart rate', unit: 'bpm' },
  { key: 'spo2', label: 'SpO2', unit: '%' },
  { key: 'temp', label: 'Temperature', unit: '°F' },
  { key: 'respiratoryRate', label: 'Respiratory rate', unit: 'breaths/min' },
  { key: 'height', label: 'Height', unit: 'in' },
  { key: 'weight', label: 'Weight', unit: 'lb' },
  { key: 'bmi', label: 'BMI', unit: 'kg/m²' },
  { key: 'headCircumference', label: 'Head circumference', unit: 'in' },
  { key: 'growthPercentile', label: 'Growth percentile', unit: '%' },
] as const;
export type VitalsKey = (typeof VITALS_FIELDS)[number]['key'];

export const VITALS_UNITS = { tempUnit: '°F', heightUnit: 'in', weightUnit: 'lb', headCircumferenceUnit: 'in' } as const;
export const HEAD_CIRCUMFERENCE_MAX_AGE = 20;

export const VITALS_MESSAGES = {
  notNumber: (label: string) => `${label} must be a number`,
  negative: (label: string) => `${label} cannot be negative`,
  empty: 'Enter at least one vital sign.',
  headCircumferenceAge: 'Head circumference is recorded only for patients 20 or younger.',
} as const;

const num = (label: string) =>
  z.optional(
    z.nullable(
      z.pipe(
        z.union([z.number(), z.string()], { error: VITALS_MESSAGES.notNumber(label) }),
        z.transform((v, ctx) => {
          if (typeof v === 'string') {
            const t = v.trim();
            if (t === '') return null;
            const n = Number(t);
            if (!Number.isFinite(n)) {
              ctx.issues.push({ code: 'custom', message: VITALS_MESSAGES.notNumber(label), input: ctx.value });
              return z.NEVER;
            }
            v = n;
          }
          if (!Number.isFinite(v)) {
            ctx.issues.push({ code: 'custom', message: VITALS_MESSAGES.notNumber(label), input: ctx.value });
            return z.NEVER;
          }
          if (v < 0) {
            ctx.issues.push({ code: 'custom', message: VITALS_MESSAGES.negative(label), input: ctx.value });
            return z.NEVER;
          }
          return v;
        }),
      ),
    ),
  );

const shape = Object.fromEntries(VITALS_FIELDS.map((f) => [f.key, num(f.label)])) as Record<VitalsKey, ReturnType<typeof num>>;

/** Vitals as typed in the form (numbers or numeric strings; blank = not measured). */
export const VitalsInput = z.object({
  ...shape,
  tempUnit: z.optional(z.literal(VITALS_UNITS.tempUnit)),
  heightUnit: z.optional(z.literal(VITALS_UNITS.heightUnit)),
  weightUnit: z.optional(z.literal(VITALS_UNITS.weightUnit)),
  text: z.optional(z.string()),
  formattedText: z.optional(z.string()),
  /** Values outside the usual range the clinician confirmed, each at the value confirmed (shared/notes/vitals-ranges.ts). */
  confirmedVitals: z.optional(z.record(z.string(), z.number())),
});
export type VitalsInput = z.infer<typeof VitalsInput>;
export type Vitals = Partial<Record<VitalsKey, number | null>> & {
  tempUnit: '°F';
  heightUnit: 'in';
  weightUnit: 'lb';
  text?: string;
  formattedText?: string;
  confirmedVitals?: VitalsConfirmations;
};

/** BMI = weight (lb) × 703 / height (in)², rounded to two decimals; null when either is missing or height is 0. */
export function bmi(weightLb: number | null | undefined, heightIn: number | null | undefined): number | null {
  if (weightLb == null || heightIn == null || heightIn <= 0 || weightLb <= 0) return null;
  return Math.round(((weightLb * 703) / (heightIn * heightIn)) * 100) / 100;
}

/** Head circumference is shown (and accepted) only for a patient 20 or younger, or without a dob. */
export function showsHeadCircumference(dob: string | null | undefined, on: Date = new Date()): boolean {
  if (!dob) return true;
  const age = ageOn(dob, on);
  return age === null || age <= HEAD_CIRCUMFERENCE_MAX_AGE;
}

export function hasAnyVital(v: Partial<Record<VitalsKey, number | null | undefined>>): boolean {
  return VITALS_FIELDS.some((f) => f.key !== 'bmi' && v[f.key] != null);
}

/** Normalises a vitals form: numbers, fixed units, BMI computed from weight and height. */
export function normalizeVitals(raw: z.input<typeof VitalsInput>): Vitals {
  const input = VitalsInput.parse(raw);
  const out: Vitals = { ...VITALS_UNITS_ONLY };
  for (const f of VITALS_FIELDS) {
    const v = input[f.key];
    if (v != null) out[f.key] = v;
  }
  const computed = bmi(out.weight, out.height);
  if (computed !== null) out.bmi = computed;
  else delete out.bmi;
  if (input.text !== undefined) out.text = input.text;
  if (input.formattedText !== undefined) out.formattedText = input.formattedText;
  // Only a confirmation of the value now recorded stays: an edited value is confirmed again.
  const confirmed = keptConfirmations(out, input.confirmedVitals);
  if (Object.keys(confirmed).length) out.confirmedVitals = confirmed;
  return out;
}
const VITALS_UNITS_ONLY = { tempUnit: '°F', heightUnit: 'in', weightUnit: 'lb' } as const;

/** One line per measured vital with its unit, as the {{vitals}} placeholders print them. */
export function vitalsLines(v: Partial<Record<VitalsKey, number | null | undefined>>): string[] {
  const lines: string[] = [];
  if (v.systolic != null || v.diastolic != null) lines.push(`Blood pressure: ${v.systolic ?? '-'}/${v.diastolic ?? '-'} mmHg`);
  for (const f of VITALS_FIELDS) {
    if (f.key === 'systolic' || f.key === 'diastolic') continue;
    const value = v[f.key];
    if (value != null) lines.push(`${f.label}: ${value}${f.unit === '%' ? '%' : ` ${f.unit}`}`);
  }
  return lines;
}
