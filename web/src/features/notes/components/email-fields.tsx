import { NOTE_MESSAGES } from '../../../../../shared/notes/note-constants.js';
import { Form } from '../../../components/ui/form.js';
import { TextField } from '../../../components/ui/text-field.js';

export interface EmailFieldsProps {
  subject: string;
  to: string;
  from: string;
  editable: boolean;
  /** Spec notes §5: the patient has no address to send to. */
  missingPatientEmail: boolean;
  /** Server or pre-send field errors, keyed `subject` / `to`. */
  fieldErrors: Record<string, string>;
  onSubjectChange: (subject: string) => void;
}

/** An email note's Subject (required while editable), To and From, from the ui kit's fields. */
export function EmailFields({ subject, to, from, editable, missingPatientEmail, fieldErrors, onSubjectChange }: EmailFieldsProps) {
  const errors: Record<string, string> = {};
  if (fieldErrors.subject) errors.subject = fieldErrors.subject;
  const toError = fieldErrors.to || (editable && missingPatientEmail ? NOTE_MESSAGES.missingPatientEmail : '');
  if (toError) errors.to = toError;
  return (
    <Form className="tw-email-fields" validationErrors={errors} onSubmit={(event) => event.preventDefault()}>
      <TextField label="Subject" name="subject" isRequired isReadOnly={!editable} value={subject} onChange={onSubjectChange} />
      <TextField label="To" name="to" isReadOnly value={to} />
      <TextField label="From" name="from" isReadOnly value={from} />
    </Form>
  );
}
