import * as z from '../zod.js';

/*
 * What an admin types for an item of the billing catalog (Settings → Charge items). Apart from
 * sales-schema.ts, which sales notes load on every cold start of the notes function.
 */
export const CHARGE_ITEM_MESSAGES = {
  nameRequired: 'Name is required',
  priceInvalid: 'Price must be an amount from $0.00 to $100,000.00',
  notFound: 'Charge item not found',
} as const;
/** The highest price an item of the catalog may have, in cents. */
export const CHARGE_ITEM_MAX_CENTS = 10_000_000;

const optionalCatalogText = (max: number) => z.optional(z.nullable(z.string().check(z.trim(), z.maxLength(max, `At most ${max} characters`))));

/** POST /v1/inventories/charge-items and PUT …/{id} (admins): the billing catalog's item; empty texts are stored as none. */
export const ChargeItemInput = z.object({
  name: z
    .string({ error: CHARGE_ITEM_MESSAGES.nameRequired })
    .check(z.trim(), z.minLength(1, CHARGE_ITEM_MESSAGES.nameRequired), z.maxLength(200, 'At most 200 characters')),
  code: optionalCatalogText(50),
  manufacturer: optionalCatalogText(200),
  category: optionalCatalogText(100),
  priceInCents: z
    .number({ error: CHARGE_ITEM_MESSAGES.priceInvalid })
    .check(
      z.int(CHARGE_ITEM_MESSAGES.priceInvalid),
      z.minimum(0, CHARGE_ITEM_MESSAGES.priceInvalid),
      z.maximum(CHARGE_ITEM_MAX_CENTS, CHARGE_ITEM_MESSAGES.priceInvalid),
    ),
});
export type ChargeItemInput = z.infer<typeof ChargeItemInput>;
export const ChargeItemParams = z.object({ chargeItemId: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)) });
