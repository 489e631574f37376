import { useSearchParams } from 'react-router-dom';
import { Link } from '../../../components/ui/link.js';
import { paths } from '../../../lib/paths.js';
import { displayUserName, useCurrentUser } from '../../../lib/practice.js';
import '../home.css';

const UPCOMING = [
  { title: 'Live feed', text: 'Tasks, calls, messages, lab results, drafts, forms and faxes as they arrive.' },
  { title: 'Today', text: "The day's appointments from the calendar." },
  { title: 'Recent patients', text: 'The charts you opened last, one click away.' },
];

export function HomePage() {
  const user = useCurrentUser();
  const [params] = useSearchParams();
  const editing = params.get('edit') === '1';

  return (
    <section className="tw-page" aria-labelledby="home-title">
      <div className="tw-page__header">
        <div>
          <h1 id="home-title" className="tw-page__title">
            Dashboard
          </h1>
          <p className="tw-page__subtitle">{user.data ? `Welcome back, ${displayUserName(user.data)}.` : 'Welcome back.'}</p>
        </div>
      </div>
      {editing ? (
        <p className="tw-home__note" role="status">
          Dashboard widgets can be arranged once they are available.
        </p>
      ) : null}
      <div className="tw-home__grid">
        <div className="tw-card tw-home__card tw-home__card--action">
          <h2 className="tw-home__card-title">Patients</h2>
          <p className="tw-home__card-text">Find a patient by name or phone number, open a profile or register someone new.</p>
          <div className="tw-home__actions">
            <Link variant="primary" href={paths.patients()}>
              Open patients
            </Link>
            <Link variant="secondary" href={paths.newPatient()}>
              New patient
            </Link>
          </div>
        </div>
        {UPCOMING.map((item) => (
          <div key={item.title} className="tw-card tw-home__card">
            <h2 className="tw-home__card-title">{item.title}</h2>
            <p className="tw-home__card-text">{item.text}</p>
            <p className="tw-home__soon">Coming soon to the dashboard</p>
          </div>
        ))}
      </div>
    </section>
  );
}
