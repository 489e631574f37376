import * as z from '../zod.js';
import { LIMITS } from '../limits.js';

/**
 * Sales notes (SALES): what the practice sold a patient at the visit. Charge items (spec notes §3:
 * id, name, code, manufacturer, priceInCents, category.name) and inventory items at their final
 * price; sales tax from the inventory settings; every amount in cents, shown as currency (spec §9).
 */

/** Spec shell §9: inventory defaults markup 10%, restock 20%, sales tax 0%. */
export const INVENTORY_SETTINGS_DEFAULTS = { defaultMarkupPercentage: 10, defaultRestockPercentage: 20, defaultSalesTaxPercentage: 0 } as const;

const percentage = z.number().check(z.gte(0), z.lte(100));
export const InventorySettings = z.object({
  defaultMarkupPercentage: percentage,
  defaultRestockPercentage: percentage,
  defaultSalesTaxPercentage: percentage,
});
export type InventorySettings = z.infer<typeof InventorySettings>;
export const InventorySettingsUpdate = z.partial(InventorySettings);

export const ChargeItem = z.object({
  id: z.string(),
  name: z.string(),
  code: z.string(),
  manufacturer: z.nullable(z.string()),
  priceInCents: z.number().check(z.int(), z.nonnegative()),
  category: z.nullable(z.object({ name: z.string() })),
});
export type ChargeItem = z.infer<typeof ChargeItem>;
/** GET /v1/inventories/charge-items?q= */
export const ChargeItemList = z.object({ chargeItems: z.array(ChargeItem) });

export const ChargeItemQuery = z.object({ q: z._default(z.optional(z.string().check(z.trim(), z.maxLength(100))), '') });
/** Charge item search answers at most this many. */
export const CHARGE_ITEM_RESULTS = 25;

/** Spec notes §3 Inventory item; costPerUnit and finalPrice in cents. */
export const InventoryItem = z.object({
  inventoryId: z.string(),
  genericName: z.string(),
  brandName: z.optional(z.nullable(z.string())),
  strength: z.optional(z.nullable(z.string())),
  form: z.optional(z.nullable(z.string())),
  ndcNumber: z.optional(z.nullable(z.string())),
  /** mm/yyyy */
  expirationDate: z.optional(z.nullable(z.string())),
  quantityInStock: z.number().check(z.int(), z.nonnegative()),
  isHidden: z.boolean(),
  costPerUnit: z.number().check(z.int(), z.nonnegative()),
  finalPrice: z.number().check(z.int(), z.nonnegative()),
  /** At or below this the item needs restock (items saved before it existed have none). */
  restockLevel: z.optional(z.nullable(z.number().check(z.int(), z.nonnegative()))),
  updatedAt: z.optional(z.string()),
});
export type InventoryItem = z.infer<typeof InventoryItem>;
/** GET /v1/inventories */
export const InventoryList = z.object({ items: z.array(InventoryItem) });

export const SALE_LINE_KINDS = ['charge', 'inventory'] as const;
export const MAX_SALE_LINES = 50;
export const MAX_SALE_QUANTITY = 999;

/** What the window sends: the item and how many; the server fills in name, price and totals. */
export const SaleLineInput = z.object({
  kind: z.enum(SALE_LINE_KINDS),
  refId: z.string().check(z.trim(), z.minLength(1), z.maxLength(LIMITS.id)),
  quantity: z.number().check(z.int(), z.gte(1, 'Quantity must be at least 1'), z.lte(MAX_SALE_QUANTITY)),
});
export type SaleLineInput = z.infer<typeof SaleLineInput>;

export interface SaleLine extends SaleLineInput {
  name: string;
  code: string | null;
  unitPriceInCents: number;
  lineTotalInCents: number;
}

export interface SaleTotals {
  subtotalInCents: number;
  salesTaxPercentage: number;
  taxInCents: number;
  totalInCents: number;
}

export const SalesData = z.object({ items: z.array(SaleLineInput).check(z.maxLength(MAX_SALE_LINES)) });

export { SALES_MESSAGES } from './sales-messages.js';

/** Sales tax on the whole subtotal, rounded to the cent (half up). */
export function saleTotals(lines: readonly Pick<SaleLine, 'lineTotalInCents'>[], salesTaxPercentage: number): SaleTotals {
  const subtotalInCents = lines.reduce((sum, l) => sum + l.lineTotalInCents, 0);
  const taxInCents = Math.round((subtotalInCents * salesTaxPercentage) / 100);
  return { subtotalInCents, salesTaxPercentage, taxInCents, totalInCents: subtotalInCents + taxInCents };
}

// Built on first use: the first Intl formatter in a process loads ICU's locale data (about 10 ms),
// which every Lambda importing this module would otherwise pay at cold start for a rare path.
let usd: Intl.NumberFormat | undefined;
/** Spec §9: cents divided by 100, as currency. */
export const formatCents = (cents: number): string => (usd ??= new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' })).format(cents / 100);
