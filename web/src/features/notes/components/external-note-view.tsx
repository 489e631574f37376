import { DRUG_SAFETY_MESSAGES, type SafetyWarning } from '../../../../../shared/chart/drug-safety.js';
import type { Note } from '../../../../../shared/notes/note-schema.js';
import type { EConsult, ExternalPrescription } from '../../../../../shared/partners/partner-schema.js';

type Row = [label: string, value: unknown];

function Fields({ rows, label }: { rows: Row[]; label: string }) {
  const shown = rows.filter(([, v]) => v !== undefined && v !== null && v !== '');
  return (
    <dl className="tw-external-note" aria-label={label}>
      {shown.map(([l, v]) => (
        <div key={l}>
          <dt>{l}</dt>
          <dd>{typeof v === 'boolean' ? (v ? 'Yes' : 'No') : String(v)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** What the sync's allergy and interaction checks found when the prescription came in from DoseSpot. */
function SyncedWarnings({ warnings }: { warnings: SafetyWarning[] | undefined }) {
  if (!warnings?.length) return null;
  return (
    <div className="tw-safety tw-safety--signed">
      <p className="tw-safety__heading">{DRUG_SAFETY_MESSAGES.heading(warnings.length)}</p>
      <ul className="tw-safety__list">
        {warnings.map((w) => (
          <li key={w.id}>{w.message}</li>
        ))}
      </ul>
      <p>Found by the chart's allergy and interaction checks when this prescription was synced from DoseSpot; the prescriber has a task to review it.</p>
    </div>
  );
}

/** A note an outside system wrote (RX_VERADIGM, RX_DOSESPOT, ECONSULT_THEA): its fields, read-only. */
export function ExternalNoteView({ note }: { note: Note }) {
  if (note.noteType === 'RX_VERADIGM' || note.noteType === 'RX_DOSESPOT') {
    const rx = (note.data.prescription ?? {}) as Partial<ExternalPrescription>;
    const pharmacy = rx.pharmacy
      ? [rx.pharmacy.name, rx.pharmacy.address?.city, rx.pharmacy.address?.state, rx.pharmacy.address?.zipCode].filter(Boolean).join(', ')
      : undefined;
    return (
      <>
        <SyncedWarnings warnings={note.data.safetyWarnings as SafetyWarning[] | undefined} />
        <Fields
          label="External prescription"
          rows={[
            ['Medication', rx.medicationName],
            ['Strength', rx.strength],
            ['Form', rx.form],
            ['Route', rx.routeOfAdministration],
            ['Instructions', rx.instructions],
            ['Quantity', rx.quantityPrescribed],
            ['Refills', rx.numberOfRefills],
            ['Days of treatment', rx.daysOfTreatment],
            ['Date prescribed', rx.datePrescribed],
            ['Use by', rx.useByDate],
            ['NDC', rx.ndcNumber],
            ['RxNorm', rx.rxNorm],
            ['Drug interactions', rx.ddi],
            ['No substitutions', rx.noSubstitutions],
            ['Prescriber', rx.providerName],
            ['Pharmacy', pharmacy],
            ['Written by', rx.createdBy?.name],
            [note.noteType === 'RX_DOSESPOT' ? 'DoseSpot id' : 'Veradigm id', rx.id],
          ]}
        />
      </>
    );
  }
  const ec = (note.data.econsult ?? {}) as Partial<EConsult>;
  return (
    <Fields
      label="eConsult"
      rows={[
        ['Specialty', ec.specialty],
        ['Question', ec.question],
        ['Answer', ec.answer],
        ['Consultant', ec.consultantName],
        ['Requested', ec.requestedAt],
        ['Answered', ec.answeredAt],
        ['eConsult id', ec.id],
      ]}
    />
  );
}
