/** What the tasks endpoints answer where the web reads less than the whole page. */
import * as z from '../zod.js';

/** GET /v1/tasks with limit 1: the badge reads only how many tasks match. */
export const TaskTotal = z.object({ total: z.number() });
