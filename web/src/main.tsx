import './styles/base.css';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.js';
import { StartupErrorView } from './components/startup-error-view.js';
import { configureAmplify } from './lib/configure-amplify.js';
import { landingScreenOf, preloadLandingScreenCode } from './lib/landing-screen-code.js';
import { hashForCallbackPath } from './lib/login-redirect.js';
import { loadRuntimeConfig } from './lib/runtime-config.js';
import { hasStoredSession } from './lib/stored-session.js';

async function bootstrap(): Promise<void> {
  const callback = hashForCallbackPath(window.location);
  if (callback) window.history.replaceState(null, '', callback);
  const container = document.getElementById('root');
  if (!container) throw new Error('Missing #root');
  const root = createRoot(container);
  // A returning user's app code downloads while config.json and the session check are under way,
  // rather than after them: one round trip less before the first screen on a slow network.
  const returning = hasStoredSession();
  // Its first screen's answers are asked for as soon as config.json is in (early-answers.ts).
  const earlyAnswers = returning ? import('./lib/early-answers.js') : undefined;
  if (returning) {
    // The screen's own code downloads beside it but runs only once the app's module has: its zod
    // settings come first.
    void import('./app/authenticated-app.js').then((app) => app.preloadScreenFor(window.location.hash)).catch(() => undefined);
    const landing = landingScreenOf(window.location.hash);
    if (landing) void preloadLandingScreenCode(landing);
  }
  try {
    const config = await loadRuntimeConfig();
    configureAmplify(config);
    void earlyAnswers?.then(
      (early) => early.askFirstScreenAnswers(window.location.hash, config.apiUrl),
      () => undefined,
    );
    root.render(<App />);
  } catch (error) {
    console.error('Tidewell could not start', error instanceof Error ? error.message : error);
    root.render(<StartupErrorView />);
  }
}

void bootstrap();
