/** What the inventory endpoints answer beyond an item and the settings (shared/sales/sales-schema.ts), read by the web client. */
import * as z from '../zod.js';
import { RestockEntry } from './inventory-schema.js';

/** GET /v1/inventories/restocks?inventoryId: one item's stock history. */
export const RestockList = z.object({ restocks: z.array(RestockEntry) });
