import { useQueries } from '@tanstack/react-query';
import { useId } from 'react';
import { DRUG_SAFETY_MESSAGES, SAFETY_OVERRIDE_REASON_MAX, type SafetyOverride, type SafetyWarning } from '../../../../../shared/chart/drug-safety.js';
import { Spinner } from '../../../components/ui/spinner.js';
import { TextField } from '../../../components/ui/text-field.js';
import { checkDrugSafety } from '../api/prescriptions-api.js';

/** The allergy and interaction checks of the drugs chosen for a patient, one request per drug (cached while the window is open). */
export function useDrugSafety(patientId: string | null | undefined, inventoryIds: readonly string[]) {
  const results = useQueries({
    queries: inventoryIds.map((inventoryId) => ({
      queryKey: ['patients', patientId, 'drug-safety', inventoryId],
      queryFn: ({ signal }: { signal: AbortSignal }) => checkDrugSafety(patientId ?? '', inventoryId, signal),
      enabled: Boolean(patientId),
      staleTime: 30_000,
    })),
  });
  const warnings: SafetyWarning[] = [];
  for (const r of results) for (const w of r.data?.warnings ?? []) if (!warnings.some((x) => x.id === w.id && x.drug === w.drug)) warnings.push(w);
  return {
    warnings,
    unclassified: results.flatMap((r) => (r.data && r.data.ingredients.length === 0 ? [r.data.drug] : [])),
    isChecking: results.some((r) => r.isFetching),
    failed: results.some((r) => r.isError),
  };
}

/**
 * What the window shows once a drug is chosen: each warning (the allergy or drug, severity,
 * reaction, why) and the reason field that going ahead needs. The check warns and asks; the
 * signature is refused only while a warning has no reason.
 */
export function SafetyWarnings({
  check,
  reason,
  onReasonChange,
}: {
  check: ReturnType<typeof useDrugSafety>;
  reason: string;
  onReasonChange: (reason: string) => void;
}) {
  const headingId = useId();
  if (check.isChecking && check.warnings.length === 0) return <Spinner label="Checking allergies and interactions" />;
  const notes = [
    ...check.unclassified.map((d) => DRUG_SAFETY_MESSAGES.notClassified(d)),
    ...(check.failed ? ['The allergy and interaction check did not answer; signing checks again.'] : []),
  ];
  if (check.warnings.length === 0) {
    return notes.length ? <p className="tw-safety__note">{notes.join(' ')}</p> : null;
  }
  return (
    <section className="tw-safety" aria-labelledby={headingId}>
      <h4 id={headingId} className="tw-safety__heading">
        {DRUG_SAFETY_MESSAGES.heading(check.warnings.length)}
      </h4>
      <div role="alert">
        <ul className="tw-safety__list">
          {check.warnings.map((w) => (
            <li key={`${w.drug}:${w.id}`} className="tw-safety__item">
              <span className="tw-safety__kind">{w.kind === 'allergy' ? 'Allergy' : 'Interaction'}</span> {w.message}
            </li>
          ))}
        </ul>
      </div>
      {notes.length ? <p className="tw-safety__note">{notes.join(' ')}</p> : null}
      <TextField
        label="Reason to continue"
        name="safetyOverride"
        isRequired
        maxLength={SAFETY_OVERRIDE_REASON_MAX}
        description="Signing over these warnings keeps this reason with the note and in the audit log."
        value={reason}
        onChange={onReasonChange}
      />
    </section>
  );
}

/** A signed note's override, read-only. */
export function SafetyOverrideSummary({ override }: { override: SafetyOverride | undefined }) {
  if (!override?.warnings?.length) return null;
  return (
    <div className="tw-safety tw-safety--signed">
      <p className="tw-safety__heading">Signed over {override.warnings.length === 1 ? 'a safety warning' : `${override.warnings.length} safety warnings`}</p>
      <ul className="tw-safety__list">
        {override.warnings.map((w) => (
          <li key={`${w.drug}:${w.id}`}>{w.message}</li>
        ))}
      </ul>
      <p>
        Reason: {override.reason} ({override.by.name}, {new Date(override.at).toLocaleString()})
      </p>
    </div>
  );
}
