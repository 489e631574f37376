import { useNavigate, useParams } from 'react-router-dom';
import { fullName } from '../../../../../shared/patients/patient-derived.js';
import type { PatientInput } from '../../../../../shared/patients/patient-schema.js';
import { GenericErrorView, NotFoundView } from '../../../components/error-views.js';
import { Spinner } from '../../../components/ui/spinner.js';
import { isApiError } from '../../../lib/api-error.js';
import { paths } from '../../../lib/paths.js';
import { showToast } from '../../../lib/toasts.js';
import { usePatient } from '../../../lib/patients.js';
import { useSavePatient } from '../api/patients-api.js';
import { EMPTY_PATIENT_FORM, formStateFromPatient } from '../patient-form-values.js';
import { PatientForm } from './patient-form.js';
import '../patients.css';

/** /patients/new and /patients/:patientId/edit. */
export function PatientFormPage() {
  const { patientId } = useParams();
  const navigate = useNavigate();
  const existing = usePatient(patientId);
  const save = useSavePatient(patientId);

  if (patientId && existing.isPending) return <Spinner />;
  if (patientId && existing.isError) return isApiError(existing.error, 404) ? <NotFoundView /> : <GenericErrorView />;

  const onSave = async (input: PatientInput) => {
    try {
      const saved = await save.mutateAsync(input);
      showToast(patientId ? 'Patient updated' : 'Patient created', { tone: 'success', description: fullName(saved) });
      void navigate(paths.patient(saved.id), { replace: true });
      return null;
    } catch (error) {
      if (isApiError(error) && error.status === 400) return { fieldErrors: error.fieldErrors, message: error.message };
      const message = isApiError(error) ? error.message : 'The patient could not be saved.';
      showToast('The patient could not be saved', { tone: 'error', description: message });
      return { fieldErrors: {}, message };
    }
  };

  const title = existing.data ? `Edit ${fullName(existing.data)}` : 'New patient';
  return (
    <section className="tw-page tw-page--narrow" aria-labelledby="patient-form-title">
      <div className="tw-page__header">
        <h1 id="patient-form-title" className="tw-page__title">
          {title}
        </h1>
      </div>
      <div className="tw-card tw-patient-form-card">
        <PatientForm
          key={existing.data?.updatedAt ?? 'new'}
          initial={existing.data ? formStateFromPatient(existing.data) : EMPTY_PATIENT_FORM}
          submitLabel={patientId ? 'Save changes' : 'Create patient'}
          cancelHref={patientId ? paths.patient(patientId) : paths.patients()}
          isSaving={save.isPending}
          onSave={onSave}
        />
      </div>
    </section>
  );
}
