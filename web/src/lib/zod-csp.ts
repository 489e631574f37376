import { config } from 'zod/v4/core';

/**
 * The web origin's CSP forbids eval (script-src 'self'): zod's compiled parsers cannot run, and its
 * probe for them (made when the first object schema is built) is reported as a CSP violation on
 * every load. Imported first by the signed-in app, before any schema module is evaluated.
 */
config({ jitless: true });
