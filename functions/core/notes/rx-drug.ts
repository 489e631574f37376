/** What the allergy and interaction checks read of an inventory item: its names, and what to call it. */
export const drugOfItem = (item: { genericName: string; brandName?: string | null; strength?: string | null }) => ({
  label: [item.brandName || item.genericName, item.strength].filter(Boolean).join(' '),
  names: [item.genericName, item.brandName].filter(Boolean).join(' '),
});
