import { SALES_NO_ITEMS } from '../notes/note-rules.js';

// Apart from the sales schemas, so signing any note (which refuses changes to a signed sale) does
// not build them on the notes function's cold start.
export const SALES_MESSAGES = {
  noItems: SALES_NO_ITEMS,
  unknownItem: (name: string) => `${name} is no longer available.`,
  notEnoughStock: (name: string) => `There is not enough ${name} in stock for this sale.`,
  signedReadOnly: 'A signed sale cannot be changed.',
} as const;
