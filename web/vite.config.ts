import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import {
  declarationOnlyLibraries,
  deferSignInCode,
  englishOnlyAriaStrings,
  landingScreenCode,
  nativeSyncExternalStore,
  onlyUsedAmplifyTokens,
  productionReactRouter,
  withoutImportersOwnChunks,
} from './build-plugins.js';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const webModule = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * During `vite dev`, TIDEWELL_ORIGIN (e.g. http://localhost:3000, a running `npm start`) supplies
 * config.json, the API, the Cognito endpoint and GraphQL on the dev server's own origin, so the
 * browser sees the same single-origin layout as the served build.
 */
const devOrigin = process.env.TIDEWELL_ORIGIN;
const proxied = ['/api', '/cognito', '/graphql'];
const preloadLists = withoutImportersOwnChunks();
const authenticatedApp = webModule('src/app/authenticated-app.tsx');

/** config.json names the runtime's origin; the dev server answers with its own so calls stay same-origin. */
function devConfigJson(origin: string): Plugin {
  return {
    name: 'tidewell-dev-config-json',
    configureServer(server) {
      server.middlewares.use('/config.json', (req, res, next) => {
        fetch(`${origin}/config.json`)
          .then((upstream) => upstream.text())
          .then((text) => {
            const own = `http://${req.headers.host ?? 'localhost'}`;
            res.setHeader('content-type', 'application/json');
            res.end(text.split(origin).join(own));
          })
          .catch(next);
      });
    },
  };
}

export default defineConfig({
  root: webRoot,
  base: './',
  plugins: [
    react(),
    deferSignInCode(),
    englishOnlyAriaStrings(),
    onlyUsedAmplifyTokens(),
    nativeSyncExternalStore(),
    productionReactRouter(),
    declarationOnlyLibraries(),
    landingScreenCode(
      {
        home: [webModule('src/app/dashboard-page.tsx')],
        chart: [webModule('src/app/patient-chart-page.tsx'), webModule('src/features/calendar/components/next-visits.tsx')],
      },
      authenticatedApp,
    ),
    preloadLists.plugin,
    ...(devOrigin ? [devConfigJson(devOrigin)] : []),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    manifest: true,
    chunkSizeWarningLimit: 1500,
    // Every browser the app supports preloads modules natively; the polyfill only adds weight.
    modulePreload: { polyfill: false, resolveDependencies: preloadLists.resolveDependencies },
    rollupOptions: {
      output: {
        // Chunks under 1 KB join a chunk loaded with them wherever that loads no code its importers
        // did not already need: a chart's first screen asks for 32 files instead of 39, and each
        // file costs a phone's page a preload link and a lookup.
        experimentalMinChunkSize: 1000,
        // The signed-in app's chunk keeps its name whatever small chunk joins it: the first-screen
        // budgets and tests find it by that name.
        chunkFileNames: (chunk) => (chunk.moduleIds.includes(authenticatedApp) ? 'assets/authenticated-app-[hash].js' : 'assets/[name]-[hash].js'),
      },
      onLog(level, log, handler) {
        // zod's bundled sources carry a pure-annotation comment Rollup cannot place; it is harmless.
        if (log.code === 'INVALID_ANNOTATION' && log.id?.includes('node_modules')) return;
        handler(level, log);
      },
    },
  },
  server: devOrigin
    ? { proxy: Object.fromEntries(proxied.map((prefix) => [prefix, { target: devOrigin, changeOrigin: true, ws: prefix === '/graphql' }])) }
    : undefined,
});
