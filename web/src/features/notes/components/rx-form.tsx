import { useId } from 'react';
import { formatCents } from '../../../../../shared/sales/sales-schema.js';
import { PATIENT_PROBLEMS_TITLE, ePrescribeProblems } from '../../../../../shared/notes/rx-patient.js';
import { isPobType, isPrescribable, prescriberChoices, RX_INSTRUCTIONS_MAX, RX_MESSAGES } from '../../../../../shared/notes/rx.js';
import type { NoteData } from '../../../../../shared/notes/note-schema.js';
import type { Patient } from '../../../../../shared/patients/patient-schema.js';
import { Button } from '../../../components/ui/button.js';
import { Checkbox } from '../../../components/ui/checkbox.js';
import { showToast, withServerText } from '../../../lib/toasts.js';
import { fetchPrescriptionPdf } from '../api/prescriptions-api.js';
import { Form } from '../../../components/ui/form.js';
import { Select } from '../../../components/ui/select.js';
import { Spinner } from '../../../components/ui/spinner.js';
import { TextField } from '../../../components/ui/text-field.js';
import { useCurrentUser, usePracticeUsers } from '../../../lib/practice.js';
import { useInventory } from '../api/sales-api.js';
import type { SafetyOverride } from '../../../../../shared/chart/drug-safety.js';
import { SafetyOverrideSummary, SafetyWarnings, useDrugSafety } from './safety-warnings.js';

const num = (v: string): number | undefined => (v.trim() === '' ? undefined : Number(v));
const text = (v: unknown): string => (v === undefined || v === null ? '' : String(v));

/**
 * An in-house prescription (spec notes §3, §5, §6, §9): a medication from the practice's inventory
 * (only items not expired, not hidden and with an NDC), a prescriber (or 'On behalf of' for the POB
 * types), and the Rx fields. Signing dispenses it; a signed prescription is read-only.
 */
export function RxForm({
  noteId,
  data,
  patient,
  editable,
  fieldErrors,
  onChange,
}: {
  noteId: string;
  data: NoteData;
  patient: Patient | undefined;
  editable: boolean;
  fieldErrors: Record<string, string>;
  onChange: (changes: NoteData) => void;
}) {
  const inventory = useInventory();
  const users = usePracticeUsers();
  const me = useCurrentUser();
  const headingId = useId();
  const myType = me.data?.veradigmUserType ?? null;
  const pob = isPobType(myType);
  const safety = useDrugSafety(editable ? patient?.id : null, editable && typeof data.inventoryId === 'string' && data.inventoryId ? [data.inventoryId] : []);

  if (!editable) return <RxSummary data={data} noteId={noteId} />;
  if (patient) {
    const problems = ePrescribeProblems(patient as unknown as Record<string, unknown>);
    if (problems.length) {
      return (
        <div className="tw-rx__problems" role="alert">
          <p>{PATIENT_PROBLEMS_TITLE}</p>
          <ul>
            {problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </div>
      );
    }
  }
  if (inventory.isPending || users.isPending) return <Spinner label="Loading the inventory" />;

  const items = (inventory.data ?? []).filter((i) => isPrescribable(i));
  const prescribers = prescriberChoices(users.data ?? [], patient?.practitioner?.name ?? null);
  const chosen = items.find((i) => i.inventoryId === data.inventoryId);
  const quantity = Number(data.quantityPrescribed) || 0;
  const field = (
    name: string,
    label: string,
    props: { isRequired?: boolean; placeholder?: string; description?: string; maxLength?: number; numeric?: boolean } = {},
  ) => (
    <TextField
      label={label}
      name={name}
      isRequired={props.isRequired}
      placeholder={props.placeholder}
      description={props.description}
      maxLength={props.maxLength}
      inputMode={props.numeric ? 'numeric' : undefined}
      value={text(data[name])}
      onChange={(v) => onChange({ [name]: props.numeric ? num(v) : v })}
    />
  );

  return (
    <Form
      className="tw-rx"
      aria-labelledby={headingId}
      validationErrors={Object.fromEntries(Object.entries(fieldErrors).filter(([, m]) => m))}
      onSubmit={(e) => e.preventDefault()}
    >
      <h3 id={headingId} className="tw-visually-hidden">
        Prescription
      </h3>
      <div className="tw-rx__grid">
        <Select
          label="Medication"
          isRequired
          className="tw-rx__span"
          options={items.map((i) => ({
            id: i.inventoryId,
            label: `${[i.brandName || i.genericName, i.strength, i.form].filter(Boolean).join(' ')} · NDC ${i.ndcNumber} · ${i.quantityInStock} in stock · ${formatCents(i.finalPrice)}`,
          }))}
          name="inventoryId"
          value={typeof data.inventoryId === 'string' ? data.inventoryId : null}
          onChange={(id) => onChange({ inventoryId: id ?? '' })}
        />
        <Select
          label={pob ? RX_MESSAGES.onBehalfOfLabel : 'Prescriber'}
          isRequired
          options={prescribers.map((u) => ({ id: u.userId, label: `${u.name}${u.npiNumber ? ` · NPI ${u.npiNumber}` : ''}` }))}
          name="providerId"
          value={typeof data.providerId === 'string' ? data.providerId : null}
          onChange={(id) => onChange({ providerId: id ?? '' })}
        />
        {field('frequency', 'Frequency', { isRequired: true, placeholder: 'e.g. Twice a day' })}
        {field('quantityPrescribed', 'Quantity', { isRequired: true, numeric: true })}
        {field('daysOfTreatment', 'Days of treatment', { isRequired: true, numeric: true })}
        {field('numberOfRefills', 'Refills', { isRequired: true, numeric: true })}
        {field('instructions', 'Instructions', { maxLength: RX_INSTRUCTIONS_MAX, description: `At most ${RX_INSTRUCTIONS_MAX} characters.` })}
        {field('datePrescribed', 'Date prescribed', { placeholder: 'mm/dd/yyyy', description: 'Today when left empty.' })}
        {field('useByDate', 'Use by date', { placeholder: 'mm/dd/yyyy' })}
        {field('lotNumber', 'Lot number')}
        {field('lotExpiration', 'Lot expiration', { placeholder: 'mm/yyyy' })}
        <div className="tw-rx__span">
          <Checkbox label="Dispense as written" isSelected={Boolean(data.daw)} onChange={(v) => onChange({ daw: v })} />
        </div>
      </div>
      <SafetyWarnings
        check={safety}
        reason={text((data.safetyOverride as { reason?: string } | undefined)?.reason)}
        onReasonChange={(reason) => onChange({ safetyOverride: { reason } })}
      />
      {chosen ? (
        <p className="tw-rx__price" aria-live="polite">
          {chosen.quantityInStock} in stock · price for the patient {formatCents(chosen.finalPrice * quantity)} ({quantity} × {formatCents(chosen.finalPrice)})
        </p>
      ) : null}
      {data.approval && (data.approval as { status?: string }).status === 'PENDING' ? <p className="tw-rx__price">{RX_MESSAGES.awaitingApproval}</p> : null}
    </Form>
  );
}

/** Spec notes §8: the PDF failure text. */
const PDF_ERROR = 'There was an error fetching your pdf, please try again';

async function openPrescriptionPdf(noteId: string): Promise<void> {
  // Opened before the request: a window opened after an await is blocked as a pop-up.
  const tab = window.open('', '_blank');
  try {
    const pdf = await fetchPrescriptionPdf(noteId);
    const bytes = Uint8Array.from(atob(pdf.base64), (c) => c.charCodeAt(0));
    const url = URL.createObjectURL(new Blob([bytes], { type: pdf.contentType }));
    if (tab) tab.location.href = url;
    else window.location.assign(url);
  } catch (error) {
    tab?.close();
    showToast(withServerText(PDF_ERROR, error), { tone: 'error' });
  }
}

function RxSummary({ data, noteId }: { data: NoteData; noteId: string }) {
  const rows: [string, unknown][] = [
    ['Medication', data.medicationName],
    ['NDC', data.ndcNumber],
    ['Prescriber', [data.providerName, data.providerNpi ? `NPI ${data.providerNpi}` : null].filter(Boolean).join(' · ')],
    ['Quantity', data.quantityPrescribed],
    ['Days of treatment', data.daysOfTreatment],
    ['Refills', data.numberOfRefills],
    ['Frequency', data.frequency],
    ['Instructions', data.instructions],
    ['Date prescribed', data.datePrescribed],
    ['Date fulfilled', data.dateFulfilled],
    ['Lot', [data.lotNumber, data.lotExpiration ? `exp. ${data.lotExpiration}` : null].filter(Boolean).join(' ')],
    ['Price for the patient', typeof data.priceForPatient === 'number' ? formatCents(data.priceForPatient) : null],
  ];
  return (
    <>
      <dl className="tw-rx__summary">
        {rows
          .filter(([, v]) => v !== undefined && v !== null && v !== '')
          .map(([k, v]) => (
            <div key={k}>
              <dt>{k}</dt>
              <dd>{String(v)}</dd>
            </div>
          ))}
      </dl>
      <SafetyOverrideSummary override={data.safetyOverride as SafetyOverride | undefined} />
      <div className="tw-rx__print">
        <Button size="sm" onPress={() => void openPrescriptionPdf(noteId)}>
          Print prescription
        </Button>
      </div>
    </>
  );
}
