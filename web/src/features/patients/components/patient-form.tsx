import { useState, type FormEvent } from 'react';
import { nationalDigits, formatPhone } from '../../../../../shared/patients/phone.js';
import { PatientInput } from '../../../../../shared/patients/patient-schema.js';
import { Button } from '../../../components/ui/button.js';
import { Form } from '../../../components/ui/form.js';
import { Link } from '../../../components/ui/link.js';
import { Select } from '../../../components/ui/select.js';
import { TextField } from '../../../components/ui/text-field.js';
import { zodFieldErrors } from '../../../lib/zod-field-errors.js';
import {
  formErrorsFromFieldErrors,
  requestDraftFromForm,
  type FormErrors,
  type PatientFormField,
  type PatientFormState,
  type PatientRequestDraft,
} from '../patient-form-values.js';

const GENDER_OPTIONS = [
  { id: 'male', label: 'Male' },
  { id: 'female', label: 'Female' },
  { id: 'other', label: 'Other' },
] as const;

const NO_ERRORS: FormErrors = { fields: {}, other: [] };

export interface PatientFormProps {
  initial: PatientFormState;
  submitLabel: string;
  cancelHref: string;
  isSaving: boolean;
  /**
   * Called with the body that passed the shared schema. Resolves to null on success, or to
   * field errors from the server keyed like the body ('address.line1').
   */
  onSave: (input: PatientInput, draft: PatientRequestDraft) => Promise<{ fieldErrors: Record<string, string>; message?: string } | null>;
}

export function PatientForm({ initial, submitLabel, cancelHref, isSaving, onSave }: PatientFormProps) {
  const [values, setValues] = useState<PatientFormState>(initial);
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);

  // A field's message goes as soon as the field is edited, not on blur: a message vanishing on
  // blur moves the Save button under a pointer that is pressing it.
  const clearError = (field: PatientFormField) =>
    setErrors((current) => {
      if (!(field in current.fields)) return current;
      const fields = { ...current.fields };
      delete fields[field];
      return { ...current, fields };
    });
  const setValue = (field: PatientFormField, value: string | null) => {
    setValues((current) => ({ ...current, [field]: value }));
    clearError(field);
  };
  const set = (field: PatientFormField) => (value: string) => setValue(field, value);
  const formatPhoneOnBlur = (field: PatientFormField) => () =>
    setValues((current) => {
      const value = current[field] ?? '';
      return nationalDigits(value) ? { ...current, [field]: formatPhone(value) } : current;
    });

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const draft = requestDraftFromForm(values);
    const parsed = PatientInput.safeParse(draft.body);
    if (!parsed.success) {
      setErrors(formErrorsFromFieldErrors(zodFieldErrors(parsed.error), draft));
      focusFirstInvalid(event.currentTarget);
      return;
    }
    setErrors(NO_ERRORS);
    const failure = await onSave(parsed.data, draft);
    if (failure) {
      const mapped = formErrorsFromFieldErrors(failure.fieldErrors, draft);
      const other = mapped.other.length || Object.keys(mapped.fields).length ? mapped.other : [failure.message ?? 'The patient could not be saved.'];
      setErrors({ fields: mapped.fields, other });
    }
  };

  const field = (name: PatientFormField, label: string, extra: Partial<Parameters<typeof TextField>[0]> = {}) => (
    <TextField name={name} label={label} value={(values[name] as string | null) ?? ''} onChange={set(name)} {...extra} />
  );
  const phoneField = (name: PatientFormField, label: string) =>
    field(name, label, { type: 'tel', inputMode: 'tel', placeholder: '(555) 555-5555', onBlur: formatPhoneOnBlur(name) });

  return (
    <Form onSubmit={(event) => void submit(event)} validationErrors={errors.fields as Record<string, string>} className="tw-patient-form" aria-label="Patient">
      {errors.other.length ? (
        <div className="tw-form-alert" role="alert">
          {errors.other.map((message) => (
            <p key={message}>{message}</p>
          ))}
        </div>
      ) : null}

      <fieldset className="tw-patient-form__section">
        <legend className="tw-patient-form__legend">Patient</legend>
        <div className="tw-patient-form__grid">
          {field('firstName', 'First Name', { isRequired: true, autoComplete: 'off' })}
          {field('middleName', 'Middle Name', { autoComplete: 'off' })}
          {field('lastName', 'Last Name', { isRequired: true, autoComplete: 'off' })}
          {field('chosenFirstName', 'Preferred First Name', { autoComplete: 'off' })}
          {field('chosenLastName', 'Preferred Last Name', { autoComplete: 'off' })}
          <div className="tw-patient-form__spacer" />
          {field('dob', 'Date of Birth', {
            placeholder: 'MM/DD/YYYY',
            inputMode: 'numeric',
            maxLength: 10,
            onChange: (value: string) => set('dob')(value.replace(/[^\d/]/g, '')),
          })}
          <Select
            name="gender"
            label="Gender"
            isRequired
            placeholder="Select gender"
            options={GENDER_OPTIONS}
            value={values.gender}
            onChange={(value) => setValue('gender', value)}
          />
        </div>
      </fieldset>

      <fieldset className="tw-patient-form__section">
        <legend className="tw-patient-form__legend">Contact</legend>
        <div className="tw-patient-form__grid">
          {phoneField('mobilePhone', 'Mobile Phone')}
          {phoneField('homePhone', 'Home Phone')}
          {phoneField('workPhone', 'Work Phone')}
          {field('email', 'Email', { type: 'email', inputMode: 'email', autoComplete: 'off' })}
        </div>
      </fieldset>

      <fieldset className="tw-patient-form__section">
        <legend className="tw-patient-form__legend">Address</legend>
        <div className="tw-patient-form__grid">
          {field('addressLine1', 'Address Line 1', { className: 'tw-patient-form__wide' })}
          {field('addressLine2', 'Address Line 2')}
          {field('city', 'City')}
          {field('state', 'State')}
          {field('zip', 'Zip Code', { inputMode: 'numeric' })}
        </div>
      </fieldset>

      <fieldset className="tw-patient-form__section">
        <legend className="tw-patient-form__legend">Insurance</legend>
        <div className="tw-patient-form__grid">
          {field('payerName', 'Payer')}
          {field('memberId', 'Member ID')}
          {field('groupId', 'Group ID')}
          {phoneField('payerPhoneNumber', 'Payer Phone')}
        </div>
      </fieldset>

      <fieldset className="tw-patient-form__section">
        <legend className="tw-patient-form__legend">Emergency contact and pharmacy</legend>
        <div className="tw-patient-form__grid">
          {field('emergencyContactName', 'Emergency Contact Name')}
          {phoneField('emergencyContactPhone', 'Emergency Contact Phone')}
          {field('preferredPharmacy', 'Preferred Pharmacy')}
        </div>
      </fieldset>

      <div className="tw-patient-form__actions">
        <Link variant="secondary" href={cancelHref}>
          Cancel
        </Link>
        <Button type="submit" variant="primary" isPending={isSaving}>
          {submitLabel}
        </Button>
      </div>
    </Form>
  );
}

function focusFirstInvalid(form: HTMLFormElement) {
  // Field errors render on the next commit; focus once they are in the DOM.
  requestAnimationFrame(() => {
    const invalid = form.querySelector<HTMLElement>('[aria-invalid="true"], [data-invalid] button, [data-invalid] input');
    invalid?.focus();
  });
}
