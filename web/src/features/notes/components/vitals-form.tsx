import { useId } from 'react';
import { bmi, showsHeadCircumference, VITALS_FIELDS, vitalsLines, type VitalsKey } from '../../../../../shared/notes/vitals.js';
import { keptConfirmations, VITALS_RANGE_MESSAGES, VITALS_RANGES, type RangedVital } from '../../../../../shared/notes/vitals-ranges.js';

type VitalsValues = Partial<Record<VitalsKey, unknown>> & { confirmedVitals?: unknown };

const asText = (v: unknown) => (v === null || v === undefined ? '' : String(v));
const asNumber = (v: unknown) => {
  const n = typeof v === 'number' ? v : Number(String(v ?? '').trim());
  return String(v ?? '').trim() === '' || !Number.isFinite(n) ? null : n;
};

/** Spec notes §5: every vital with its unit; BMI live from weight and height; head circumference only for 20 or younger or no dob. */
export function VitalsForm({
  values,
  patientDob,
  isReadOnly,
  fieldErrors,
  onChange,
}: {
  values: VitalsValues;
  patientDob: string | null | undefined;
  isReadOnly: boolean;
  fieldErrors: Record<string, string>;
  onChange: (key: VitalsKey, value: string) => void;
}) {
  const id = useId();
  const liveBmi = bmi(asNumber(values.weight), asNumber(values.height));
  const withHead = showsHeadCircumference(patientDob);
  const fields = VITALS_FIELDS.filter((f) => f.key !== 'bmi' && (f.key !== 'headCircumference' || withHead));
  // Values the clinician confirmed outside the usual range, at the value now shown.
  const confirmed = keptConfirmations(Object.fromEntries(VITALS_FIELDS.map((f) => [f.key, asNumber(values[f.key])])), values.confirmedVitals);

  if (isReadOnly) {
    const lines = vitalsLines({ ...Object.fromEntries(VITALS_FIELDS.map((f) => [f.key, asNumber(values[f.key])])), bmi: asNumber(values.bmi) ?? liveBmi });
    return (
      <ul className="tw-vitals-summary">
        {lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
        {Object.entries(confirmed).map(([key, value]) => {
          const range = VITALS_RANGES[key as RangedVital];
          return (
            <li key={`confirmed-${key}`} className="tw-vitals-summary__confirmed">
              {VITALS_RANGE_MESSAGES.confirmed}: {range.label} {value}
              {range.unit === '%' ? '%' : ` ${range.unit}`}
            </li>
          );
        })}
      </ul>
    );
  }

  return (
    <div className="tw-vitals-form" role="group" aria-label="Vitals">
      {fields.map((field) => (
        <label key={field.key} className="tw-vitals-form__field" htmlFor={`${id}-${field.key}`}>
          <span className="tw-field__label">{field.label}</span>
          <span className="tw-vitals-form__input-row">
            <input
              id={`${id}-${field.key}`}
              className="tw-field__input tw-vitals-form__input"
              inputMode="decimal"
              value={asText(values[field.key])}
              aria-invalid={fieldErrors[field.key] ? true : undefined}
              onChange={(e) => onChange(field.key, e.target.value)}
            />
            <span className="tw-vitals-form__unit">{field.unit}</span>
          </span>
          {fieldErrors[field.key] ? <span className="tw-field__error">{fieldErrors[field.key]}</span> : null}
          {!fieldErrors[field.key] && (confirmed as Record<string, number | undefined>)[field.key] !== undefined ? (
            <span className="tw-vitals-form__confirmed">{VITALS_RANGE_MESSAGES.confirmed}</span>
          ) : null}
        </label>
      ))}
      <div className="tw-vitals-form__field tw-vitals-form__bmi">
        <span className="tw-field__label">BMI</span>
        <output aria-label="BMI" className="tw-vitals-form__bmi-value">
          {liveBmi === null ? '—' : liveBmi.toFixed(2)}
        </output>
        <span className="tw-vitals-form__unit">weight × 703 / height²</span>
      </div>
    </div>
  );
}
