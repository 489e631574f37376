/**
 * How far a vital sign may go before a clinician is asked to confirm it (the usual range) and
 * before it is refused as a typing slip (the possible range), in the units the vitals form records
 * (spec notes §5: temp °F, height in, weight lb, head circumference in). One table for the note
 * window, the API and the chart import, so all three say the same range in the same words.
 *
 * The possible limits sit just outside recorded human extremes, so nothing a living patient has
 * shown is ever refused:
 * - Temperature: 56.7 °F (13.7 °C, Bågenholm 1999, accidental hypothermia survived) to 115.7 °F
 *   (46.5 °C, Jones 1980, heat stroke survived).
 * - Heart rate: 480 bpm is the fastest ventricular rate reported in an adult (Chhabra et al. 2012,
 *   Indian Pacing Electrophysiol J); slow rates below 20 bpm are seen in complete heart block.
 * - Blood pressure: 370/360 mmHg was measured intra-arterially during double-leg presses
 *   (MacDougall et al. 1985, J Appl Physiol); a cuff reads nothing below about 20 mmHg.
 * - SpO2: a saturation cannot exceed 100%; about 20% is the floor pulse oximeters report, and
 *   summit climbers on Everest had arterial saturations near 54% (Grocott et al. 2009, NEJM).
 * - Respiratory rate: apnoeic pauses aside, 2 to 150 breaths/min covers distressed newborns.
 * - Height: 8 in (the smallest surviving preterm newborns, about 24 cm) to 108 in (Robert Wadlow,
 *   272 cm, 1940).
 * - Weight: 0.5 lb (the lightest surviving preterm newborn, 245 g, 2018) to 1400 lb (Jon Brower
 *   Minnoch, about 635 kg, 1978).
 * - Head circumference: 6 in (extreme microcephaly in a preterm newborn) to 40 in (untreated
 *   hydrocephalus).
 * The usual limits are the adult and paediatric ranges a clinic sees day to day, widened so a
 * normal newborn or a febrile child is not questioned: temperature 95 °F (35 °C, where hypothermia
 * begins) to 104 °F (40 °C, where a fever becomes an emergency), heart rate 40–180 bpm,
 * respiratory rate 8–60 breaths/min, SpO2 from 88% (the lowest target even in COPD).
 */
/** The vitals form's fields that have a range (BMI is computed, a growth percentile is 0–100 by definition). */
export type RangedVital = 'systolic' | 'diastolic' | 'heartRate' | 'spo2' | 'temp' | 'respiratoryRate' | 'height' | 'weight' | 'headCircumference';

export interface VitalRange {
  label: string;
  unit: string;
  /** Within this a value is saved without a question. */
  usual: readonly [number, number];
  /** Outside this a value is refused. */
  possible: readonly [number, number];
}

export const VITALS_RANGES: Record<RangedVital, VitalRange> = {
  temp: { label: 'Temperature', unit: '°F', usual: [95, 104], possible: [56, 116] },
  heartRate: { label: 'Heart rate', unit: 'bpm', usual: [40, 180], possible: [10, 480] },
  systolic: { label: 'Systolic', unit: 'mmHg', usual: [70, 220], possible: [20, 370] },
  diastolic: { label: 'Diastolic', unit: 'mmHg', usual: [40, 130], possible: [10, 360] },
  spo2: { label: 'SpO2', unit: '%', usual: [88, 100], possible: [20, 100] },
  respiratoryRate: { label: 'Respiratory rate', unit: 'breaths/min', usual: [8, 60], possible: [2, 150] },
  height: { label: 'Height', unit: 'in', usual: [18, 84], possible: [8, 108] },
  weight: { label: 'Weight', unit: 'lb', usual: [4, 500], possible: [0.5, 1400] },
  headCircumference: { label: 'Head circumference', unit: 'in', usual: [11, 26], possible: [6, 40] },
};

export type VitalsConfirmations = Partial<Record<RangedVital, number>>;

export interface VitalFinding {
  key: RangedVital;
  value: number;
  message: string;
}

const withUnit = (value: number, unit: string) => (unit === '%' ? `${value}%` : `${value} ${unit}`);
const span = ([lo, hi]: readonly [number, number], unit: string) => (unit === '%' ? `${lo}–${hi}%` : `${lo}–${hi} ${unit}`);

export const VITALS_RANGE_MESSAGES = {
  impossible: (r: VitalRange, value: number) =>
    `${r.label} ${withUnit(value, r.unit)} is not possible. Enter a value from ${r.possible[0]} to ${withUnit(r.possible[1], r.unit)}.`,
  /** Why an import leaves a recorded value out rather than refusing the whole bundle. */
  leftOut: (r: VitalRange, value: number) => `${r.label} ${withUnit(value, r.unit)} is outside the possible range ${span(r.possible, r.unit)}`,
  unusual: (r: VitalRange, value: number) => `${r.label} ${withUnit(value, r.unit)} is outside the usual range ${span(r.usual, r.unit)}.`,
  /** The note window's question before saving (or signing) an unusual value. */
  confirmQuestion: (action: 'save' | 'sign') => (action === 'sign' ? 'Sign anyway?' : 'Save anyway?'),
  /** Beside a value the clinician confirmed, so the chart shows it was not a slip. */
  confirmed: 'Confirmed outside the usual range',
  /** The API's answer to a save of an unusual value nobody confirmed. */
  unconfirmed: (r: VitalRange, value: number) => `${VITALS_RANGE_MESSAGES.unusual(r, value)} Confirm it to save.`,
} as const;

type Values = Readonly<Record<string, unknown>>;

const numberOf = (v: unknown): number | null => {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v.trim());
    return Number.isFinite(n) ? n : null;
  }
  return null;
};

function findings(values: Values, test: (r: VitalRange, n: number) => boolean, message: (r: VitalRange, n: number) => string): VitalFinding[] {
  const out: VitalFinding[] = [];
  for (const [key, range] of Object.entries(VITALS_RANGES) as [RangedVital, VitalRange][]) {
    const n = numberOf(values[key]);
    if (n !== null && test(range, n)) out.push({ key, value: n, message: message(range, n) });
  }
  return out;
}

/** Values no living patient has shown: refused with the possible range. */
export function impossibleVitals(values: Values): VitalFinding[] {
  return findings(values, (r, n) => n < r.possible[0] || n > r.possible[1], VITALS_RANGE_MESSAGES.impossible);
}

/** Possible values outside the usual range: saved only once the clinician confirms them. */
export function unusualVitals(values: Values): VitalFinding[] {
  return findings(values, (r, n) => n >= r.possible[0] && n <= r.possible[1] && (n < r.usual[0] || n > r.usual[1]), VITALS_RANGE_MESSAGES.unusual);
}

/** The unusual values not yet confirmed at the value now entered: a changed value is asked again. */
export function unconfirmedVitals(values: Values): VitalFinding[] {
  const confirmed = (values.confirmedVitals && typeof values.confirmedVitals === 'object' ? values.confirmedVitals : {}) as Record<string, unknown>;
  return unusualVitals(values).filter((f) => confirmed[f.key] !== f.value);
}

/** The confirmations that still apply: one per unusual value, at the value confirmed. */
export function keptConfirmations(values: Values, confirmed: unknown): VitalsConfirmations {
  const given = (confirmed && typeof confirmed === 'object' ? confirmed : {}) as Record<string, unknown>;
  const out: VitalsConfirmations = {};
  for (const f of unusualVitals(values)) if (given[f.key] === f.value) out[f.key] = f.value;
  return out;
}

/** The refusal for each finding, keyed by field, as the form shows it beside the input. */
export function fieldErrorsOf(list: readonly VitalFinding[], message: (f: VitalFinding) => string = (f) => f.message): Record<string, string> {
  return Object.fromEntries(list.map((f) => [f.key, message(f)]));
}

/** An import's reason for leaving an impossible value out. */
export function leftOutReason(list: readonly VitalFinding[]): string {
  return list.map((f) => VITALS_RANGE_MESSAGES.leftOut(VITALS_RANGES[f.key], f.value)).join('; ');
}

/** The API's message for unusual values nobody confirmed, each with its range. */
export function unconfirmedMessage(f: VitalFinding): string {
  return VITALS_RANGE_MESSAGES.unconfirmed(VITALS_RANGES[f.key], f.value);
}
