/** What the phone call endpoints answer, read by the web client. */
import * as z from '../zod.js';

/** GET /v1/phone-calls/count: the unread calls, for the Communication badge. */
export const CallCount = z.object({ count: z.number() });
