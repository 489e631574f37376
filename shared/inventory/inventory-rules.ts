/**
 * Inventory messages and rules without a schema: the API's stock code (also loaded by the notes
 * group's sales and prescriptions) reads these, the forms read inventory-schema.ts.
 */
export const INVENTORY_MESSAGES = {
  genericNameRequired: 'Generic name is required',
  ndcInvalid: 'NDC must be digits in the form 0000-0000-00',
  expirationInvalid: 'Expiration must be in mm/yyyy format',
  quantityInvalid: 'Quantity in stock must be a whole number of 0 or more',
  priceInvalid: 'Prices must be amounts of 0 or more',
  reasonRequired: 'A reason for editing is required when the quantity in stock changes',
  notFound: 'Inventory item not found',
  stockChanged: 'The quantity in stock was changed by someone else. Reload the item and try again.',
  needsRestock: 'Needs restock',
  saved: 'Inventory item saved',
  saveError: 'There was an error saving the inventory item.',
  restockNotForNote: 'Only a deleted prescription dispensed from this item can have its prescribed quantity put back here.',
  alreadyRestocked: "This prescription's quantity was already put back in stock.",
  restockNoteChanged: 'The prescription was restored or changed meanwhile: its quantity was not put back.',
} as const;

export const needsRestock = (item: { quantityInStock: number; restockLevel?: number | null }): boolean => item.quantityInStock <= (item.restockLevel ?? 0);

/** Final price from cost and markup percentage, rounded to the cent. */
export const priceWithMarkup = (costPerUnit: number, markupPercentage: number): number => Math.round(costPerUnit * (1 + markupPercentage / 100));
