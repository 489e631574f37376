import { lazy, Suspense, useState, type ReactNode } from 'react';
import { useParams } from 'react-router-dom';
import { dobString, fullName, fullNameWithAge, preferredName } from '../../../../../shared/patients/patient-derived.js';
import { formatPhone } from '../../../../../shared/patients/phone.js';
import type { Patient } from '../../../../../shared/patients/patient-schema.js';
import { GenericErrorView, NotFoundView } from '../../../components/error-views.js';
import { Avatar } from '../../../components/ui/avatar.js';
import { Badge } from '../../../components/ui/badge.js';
import { Button } from '../../../components/ui/button.js';
import { ArchiveIcon, ChevronLeftIcon, PencilIcon } from '../../../components/ui/icons.js';
import { Link } from '../../../components/ui/link.js';
import { Spinner } from '../../../components/ui/spinner.js';
import { isApiError } from '../../../lib/api-error.js';
import { paths } from '../../../lib/paths.js';
import { useCan } from '../../../lib/permissions.js';
import { showToast } from '../../../lib/toasts.js';
import { usePatient } from '../../../lib/patients.js';
import { useArchivePatient } from '../api/patients-api.js';
import { MembershipMenuButton } from './membership-menu-button.js';
import '../patients.css';

/** Asked for when Archive is first pressed: the header shows without the dialogs' code. */
const ConfirmDialog = lazy(() => import('../../../components/ui/dialog.js').then((m) => ({ default: m.ConfirmDialog })));

const GENDER_LABEL: Record<string, string> = { male: 'Male', female: 'Female', other: 'Other' };
const PHONE_LABEL: Record<string, string> = { mobile: 'Mobile', home: 'Home', work: 'Work' };

/** Panels of other features (chart sections, notes) are composed in by the app, below the header. */
export type PatientPanels = (patient: Patient) => ReactNode;

/** What other features add to the header (the next visits from the calendar), composed in by the app. */
export function PatientProfilePage({ panels, headerExtras }: { panels?: PatientPanels; headerExtras?: PatientPanels }) {
  const { patientId = '' } = useParams();
  const patient = usePatient(patientId);

  if (patient.isPending) return <Spinner label="Loading patient" />;
  if (patient.isError) return isApiError(patient.error, 404) ? <NotFoundView /> : <GenericErrorView />;
  return <PatientProfile patient={patient.data} panels={panels} headerExtras={headerExtras} />;
}

function PatientProfile({ patient, panels, headerExtras }: { patient: Patient; panels?: PatientPanels; headerExtras?: PatientPanels }) {
  const [confirmOpen, setConfirmOpen] = useState(false);
  // Mounted from the first press on, so it also closes as a dialog does.
  const [confirmWanted, setConfirmWanted] = useState(false);
  const archive = useArchivePatient(patient.id);
  const mayArchive = useCan('patient.archive');
  const mayReadHistory = useCan('patient.accessHistory.read');
  const archived = patient.status === 'DELETED' || patient.membershipStatus === 'archived';
  const chosen = preferredName(patient);
  const hasChosenName = Boolean(patient.chosenFirstName?.trim() || patient.chosenLastName?.trim());

  const confirmArchive = () =>
    archive.mutate(undefined, {
      onSuccess: () => {
        setConfirmOpen(false);
        showToast('Patient archived', { tone: 'success', description: fullName(patient) });
      },
      onError: (error) => showToast('The patient could not be archived', { tone: 'error', description: error.message }),
    });

  return (
    <section className="tw-page" aria-labelledby="patient-name">
      <Link href={paths.patients()} className="tw-profile__back">
        <ChevronLeftIcon /> Patients
      </Link>
      <div className="tw-card tw-profile">
        <header className="tw-profile__header">
          <Avatar firstName={patient.firstName} lastName={patient.lastName} size="lg" />
          <div className="tw-profile__identity">
            <div className="tw-profile__name-row">
              <h1 id="patient-name" className="tw-profile__name">
                {fullNameWithAge(patient)}
              </h1>
              {archived ? <Badge tone="warning">Archived</Badge> : null}
            </div>
            <p className="tw-profile__summary">
              {hasChosenName ? <span>Preferred name: {chosen}</span> : null}
              {patient.dob ? <span>DOB {dobString(patient)}</span> : null}
              {patient.gender ? <span>{GENDER_LABEL[patient.gender]}</span> : null}
            </p>
            {headerExtras ? headerExtras(patient) : null}
          </div>
          <div className="tw-profile__actions">
            <Link variant="secondary" href={paths.editPatient(patient.id)}>
              <PencilIcon /> Edit
            </Link>
            <MembershipMenuButton patientId={patient.id} />
            {mayReadHistory ? (
              <Link variant="secondary" href={paths.patientAccessHistory(patient.id)}>
                Access history
              </Link>
            ) : null}
            {archived || !mayArchive ? null : (
              <Button
                variant="secondary"
                onPress={() => {
                  setConfirmWanted(true);
                  setConfirmOpen(true);
                }}
              >
                <ArchiveIcon /> Archive
              </Button>
            )}
          </div>
        </header>

        <dl className="tw-profile__details">
          <Detail label="Date of birth">{dobString(patient)}</Detail>
          <Detail label="Gender">{patient.gender ? GENDER_LABEL[patient.gender] : ''}</Detail>
          <Detail label="Phone">
            {patient.phones?.length ? (
              <ul className="tw-profile__phones">
                {patient.phones.map((phone, index) => (
                  <li key={`${phone.type}-${index}`}>
                    <span className="tw-profile__mono">{formatPhone(phone.number)}</span>{' '}
                    <span className="tw-profile__muted">{PHONE_LABEL[phone.type] ?? phone.type}</span>
                  </li>
                ))}
              </ul>
            ) : (
              formatPhone(patient.primaryPhoneNumber)
            )}
          </Detail>
          <Detail label="Email">{patient.email}</Detail>
          <Detail label="Address">
            <AddressLines address={patient.address} />
          </Detail>
          <Detail label="Insurance">
            <InsuranceLines insurance={patient.healthInsurance} />
          </Detail>
          <Detail label="Emergency contact">
            {patient.emergencyContact?.name || patient.emergencyContact?.phoneNumber ? (
              <>
                {patient.emergencyContact?.name}
                {patient.emergencyContact?.phoneNumber ? <div className="tw-profile__mono">{formatPhone(patient.emergencyContact.phoneNumber)}</div> : null}
              </>
            ) : null}
          </Detail>
          <Detail label="Preferred pharmacy">{patient.preferredPharmacy}</Detail>
          <DemographicDetails demographics={patient.demographics} />
        </dl>
      </div>

      {panels ? <div className="tw-profile__panels">{panels(patient)}</div> : null}

      {confirmWanted ? (
        <Suspense fallback={null}>
          <ConfirmDialog
            isOpen={confirmOpen}
            onOpenChange={setConfirmOpen}
            title="Archive patient?"
            confirmLabel="Archive"
            tone="danger"
            isPending={archive.isPending}
            onConfirm={confirmArchive}
          >
            {fullName(patient)} will be moved to the archived patients. Their chart stays available under "Show archived".
          </ConfirmDialog>
        </Suspense>
      ) : null}
    </section>
  );
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  const empty = children === undefined || children === null || children === '' || children === false;
  return (
    <div className="tw-profile__detail">
      <dt>{label}</dt>
      <dd>{empty ? <span className="tw-profile__muted">—</span> : children}</dd>
    </div>
  );
}

const BIRTH_SEX_LABEL: Record<string, string> = { F: 'Female', M: 'Male', UNK: 'Unknown' };
type Demographics = NonNullable<Patient['demographics']>;
const categoryWords = (c: Demographics['race']) => c?.text ?? [...(c?.omb ?? []), ...(c?.detailed ?? [])].map((x) => x.display ?? x.code).join(', ');

/** What an imported record said (race, ethnicity, birth sex, other systems' identifiers): shown only when known. */
function DemographicDetails({ demographics: d }: { demographics: Patient['demographics'] }) {
  if (!d) return null;
  return (
    <>
      {d.race ? <Detail label="Race">{categoryWords(d.race)}</Detail> : null}
      {d.ethnicity ? <Detail label="Ethnicity">{categoryWords(d.ethnicity)}</Detail> : null}
      {d.birthSex ? <Detail label="Sex assigned at birth">{BIRTH_SEX_LABEL[d.birthSex]}</Detail> : null}
      {d.identifiers?.length ? (
        <Detail label="Other identifiers">
          <ul className="tw-profile__phones">
            {d.identifiers.map((i) => (
              <li key={`${i.system ?? ''}|${i.value}`}>
                <span className="tw-profile__muted">{i.label ?? i.type ?? 'ID'}</span> <span className="tw-profile__mono">{i.value}</span>
                {i.system ? <div className="tw-profile__muted tw-profile__system">{i.system}</div> : null}
              </li>
            ))}
          </ul>
        </Detail>
      ) : null}
    </>
  );
}

function AddressLines({ address }: { address: Patient['address'] }) {
  if (!address) return null;
  const cityLine = [address.city, [address.state, address.zip].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  const lines = [address.line1, address.line2, cityLine].filter((line): line is string => Boolean(line?.trim()));
  if (!lines.length) return null;
  return (
    <>
      {lines.map((line) => (
        <div key={line}>{line}</div>
      ))}
    </>
  );
}

function InsuranceLines({ insurance }: { insurance: Patient['healthInsurance'] }) {
  if (!insurance || !(insurance.payerName || insurance.memberId || insurance.groupId)) return null;
  return (
    <>
      {insurance.payerName ? <div>{insurance.payerName}</div> : null}
      {insurance.memberId ? (
        <div>
          <span className="tw-profile__muted">Member</span> <span className="tw-profile__mono">{insurance.memberId}</span>
        </div>
      ) : null}
      {insurance.groupId ? (
        <div>
          <span className="tw-profile__muted">Group</span> <span className="tw-profile__mono">{insurance.groupId}</span>
        </div>
      ) : null}
    </>
  );
}
