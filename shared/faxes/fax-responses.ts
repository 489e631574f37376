import * as z from '../zod.js';

/** GET /v1/faxes/fax-numbers: the practice's fax lines (none when faxing is not set up). */
export const FaxNumberList = z.object({ faxNumbers: z.array(z.string()) });
