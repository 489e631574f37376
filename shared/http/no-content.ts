import * as z from '../zod.js';

/** A 204 answer: no body, which the web client reads as undefined. */
export const NoContent = z.undefined();
