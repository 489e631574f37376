// What the DoseSpot endpoints answer, read by the web client. Kept apart from dosespot.ts so the
// practice Lambda, which only needs the types, does not bundle these schemas.
import * as z from '../zod.js';

export const DoseSpotSso = z.object({ ssoUrl: z.string() });
export type DoseSpotSso = z.infer<typeof DoseSpotSso>;

export const DoseSpotSyncResult = z.object({
  /** How many prescriptions became notes in this run (0 when all were synced before). */
  created: z.number(),
  noteIds: z.array(z.string()),
  /** Its background task record (GET /v1/practices/users/me/dosespot-sync). */
  taskId: z.string(),
});
export type DoseSpotSyncResult = z.infer<typeof DoseSpotSyncResult>;
