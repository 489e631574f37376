import * as z from '../zod.js';
import { isMonthYear } from '../notes/rx.js';
import { INVENTORY_MESSAGES } from './inventory-rules.js';

export { INVENTORY_MESSAGES, needsRestock, priceWithMarkup } from './inventory-rules.js';

/** One change of an item's quantityInStock. */
export const RestockEntry = z.object({
  restockId: z.string(),
  inventoryId: z.string(),
  /** Units added (positive) or taken (negative). */
  change: z.number(),
  /** The stock after the change when it is known exactly (edits); a dispense records only its change. */
  quantityAfter: z.nullable(z.number()),
  reasonForEditing: z.string(),
  userId: z.string(),
  userName: z.string(),
  at: z.string(),
  noteId: z.optional(z.nullable(z.string())),
});
export type RestockEntry = z.infer<typeof RestockEntry>;

/**
 * The practice's medication inventory (spec notes §3 Inventory item, shell §2.1 /inventory, §7.10,
 * §9): every amount in cents; every change of quantityInStock is kept as a restock entry with who,
 * when, how much and why.
 */

/** Not fixed by the spec: bounds on one item's text and counts. */
export const INVENTORY_TEXT_MAX = 200;
export const INVENTORY_QUANTITY_MAX = 1_000_000;
export const INVENTORY_CENTS_MAX = 100_000_000;
export const REASON_MAX = 300;

const text = (max = INVENTORY_TEXT_MAX) =>
  z.pipe(
    z.transform((v) => (v === '' ? null : v)),
    z.optional(z.nullable(z.string().check(z.trim(), z.maxLength(max)))),
  );
const cents = z
  .number({ error: INVENTORY_MESSAGES.priceInvalid })
  .check(z.int(INVENTORY_MESSAGES.priceInvalid), z.gte(0, INVENTORY_MESSAGES.priceInvalid), z.lte(INVENTORY_CENTS_MAX));
const quantity = z
  .number({ error: INVENTORY_MESSAGES.quantityInvalid })
  .check(z.int(INVENTORY_MESSAGES.quantityInvalid), z.gte(0, INVENTORY_MESSAGES.quantityInvalid), z.lte(INVENTORY_QUANTITY_MAX));

const fields = {
  genericName: z
    .string({ error: INVENTORY_MESSAGES.genericNameRequired })
    .check(z.trim(), z.minLength(1, INVENTORY_MESSAGES.genericNameRequired), z.maxLength(INVENTORY_TEXT_MAX)),
  brandName: text(),
  strength: text(),
  form: text(),
  ndcNumber: z.pipe(
    z.transform((v) => (v === '' ? null : v)),
    z.optional(z.nullable(z.string().check(z.trim(), z.regex(/^\d{4,5}-\d{3,4}-\d{1,2}$/, INVENTORY_MESSAGES.ndcInvalid)))),
  ),
  expirationDate: z.pipe(
    z.transform((v) => (v === '' ? null : v)),
    z.optional(z.nullable(z.string().check(z.trim(), z.refine(isMonthYear, INVENTORY_MESSAGES.expirationInvalid)))),
  ),
  isHidden: z.optional(z.boolean()),
  costPerUnit: cents,
  /** Cents; when left out, costPerUnit plus the settings' default markup. */
  finalPrice: z.optional(cents),
  /** At or below this quantity the item needs restock; when left out, the settings' restock percentage of the stock. */
  restockLevel: z.optional(quantity),
};

/** POST /v2/inventories. */
export const InventoryCreateBody = z.object({ ...fields, quantityInStock: quantity });
export type InventoryCreateBody = z.infer<typeof InventoryCreateBody>;

/** PUT /v2/inventories: the fields sent change; a new quantityInStock needs reasonForEditing. */
export const InventoryUpdateBody = z
  .object({
    inventoryId: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
    genericName: z.optional(fields.genericName),
    brandName: fields.brandName,
    strength: fields.strength,
    form: fields.form,
    ndcNumber: fields.ndcNumber,
    expirationDate: fields.expirationDate,
    isHidden: fields.isHidden,
    costPerUnit: z.optional(cents),
    finalPrice: fields.finalPrice,
    restockLevel: fields.restockLevel,
    quantityInStock: z.optional(quantity),
    /** The stock the editor saw: a change made meanwhile is refused (409) rather than overwritten. */
    expectedQuantityInStock: z.optional(quantity),
    reasonForEditing: z.optional(z.string().check(z.trim(), z.maxLength(REASON_MAX))),
    /** The deleted prescription whose quantity this puts back (spec notes §7), so restoring it takes the quantity out again. */
    noteId: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(100))),
  })
  .check(
    z.superRefine((v, ctx) => {
      if (v.quantityInStock !== undefined && !v.reasonForEditing)
        ctx.issues.push({ code: 'custom', message: INVENTORY_MESSAGES.reasonRequired, path: ['reasonForEditing'], input: v });
    }),
  );
export type InventoryUpdateBody = z.infer<typeof InventoryUpdateBody>;

export const InventoryIdParams = z.object({ inventoryId: z.string().check(z.minLength(1), z.maxLength(100)) });
export const RestocksQuery = z.object({ inventoryId: z.string().check(z.minLength(1), z.maxLength(100)) });
