/*
 * A deleted prescription whose quantity went back to stock (docs/access-patterns.md): pk practiceId,
 * sk RX_RESTOCK#<noteId> (`inventoryId`, `quantity`, `restockedAt`, `userId`). Written with the restock
 * (PUT /v2/inventories with the note's id), removed by the restore that takes the quantity out again,
 * so a restock happens once per deletion and a restore knows what to take back.
 */
export const rxRestockKey = (noteId: string) => `RX_RESTOCK#${noteId}`;

export interface RxRestock {
  noteId: string;
  inventoryId: string;
  quantity: number;
  restockedAt: string;
  userId: string;
}
