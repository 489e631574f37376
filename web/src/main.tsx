import './styles/base.css';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.js';
import { StartupErrorView } from './components/startup-error-view.js';
import { configureAmplify } from './lib/configure-amplify.js';
import { hashForCallbackPath } from './lib/login-redirect.js';
import { loadRuntimeConfig } from './lib/runtime-config.js';

async function bootstrap(): Promise<void> {
  const callback = hashForCallbackPath(window.location);
  if (callback) window.history.replaceState(null, '', callback);
  const container = document.getElementById('root');
  if (!container) throw new Error('Missing #root');
  const root = createRoot(container);
  try {
    const config = await loadRuntimeConfig();
    configureAmplify(config);
    root.render(<App />);
  } catch (error) {
    console.error('Tidewell could not start', error instanceof Error ? error.message : error);
    root.render(<StartupErrorView />);
  }
}

void bootstrap();
