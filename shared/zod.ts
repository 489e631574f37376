/**
 * The one door to zod for both sides: zod/mini's functional API (tree-shaken to what each bundle
 * uses, where zod's classic API puts every method of every schema into every Lambda) with zod's
 * English messages set once, as the classic API would, so a 400 names the rule in plain words.
 */
import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

z.config(en());

export * from 'zod/mini';
