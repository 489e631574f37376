import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { inventoryItemRecord } from '../../functions/data/inventory/inventory-repository.js';
import { api, signIn, stackEndpoints, tableClient } from '../support/local-stack.js';

const run = Date.now().toString(36);
let admin: string;
let employee: string;
let patientId: string;
let taxBefore: number;

async function stockOf(inventoryId: string): Promise<number> {
  const items = (await api(employee, 'GET', '/v1/inventories')).body.items as { inventoryId: string; quantityInStock: number }[];
  return items.find((i) => i.inventoryId === inventoryId)!.quantityInStock;
}

/** The dispensary's stock is managed by the inventory screens (another release): the test writes an item as they would. */
let items = 0;
async function newInventoryItem(quantityInStock: number, finalPrice: number): Promise<string> {
  const inventoryId = `inv-test-${run}-${(items += 1)}`;
  const { client, tableName } = tableClient();
  const item = {
    inventoryId,
    genericName: `Cetirizine ${run}`,
    strength: '10 mg',
    form: 'tablet',
    ndcNumber: '00000-0000-00',
    quantityInStock,
    isHidden: false,
    costPerUnit: 10,
    finalPrice,
  };
  await client.send(new PutCommand({ TableName: tableName, Item: inventoryItemRecord(stackEndpoints().practiceId, item) }));
  return inventoryId;
}

async function draftSale(items: unknown[]) {
  const created = await api(employee, 'POST', '/v2/notes', { noteType: 'SALES', patientId, status: 'DRAFT', data: {} });
  expect(created.status).toBe(201);
  const saved = await api(employee, 'POST', `/v1/notes/${created.body.noteId}`, { noteVersion: 1, data: { items } });
  return saved;
}

beforeAll(async () => {
  [admin, employee] = await Promise.all([signIn('admin@demo.tidewell.local'), signIn('employee@demo.tidewell.local')]);
  patientId = (await api(admin, 'POST', '/v1/patients', { firstName: 'Sally', lastName: `Sales${run}`, gender: 'female', dob: '1975-06-01' })).body.id;
  taxBefore = (await api(employee, 'GET', '/v1/inventories/settings')).body.defaultSalesTaxPercentage;
});

afterAll(async () => {
  await api(admin, 'PUT', '/v1/inventories/settings', { defaultSalesTaxPercentage: taxBefore });
});

describe('charge items and inventory settings', () => {
  it('lets an admin add, change and remove a charge item of the catalog, with the messages of its fields; others only read it', async () => {
    const name = `Flu shot ${run}`;
    const added = await api(admin, 'POST', '/v1/inventories/charge-items', {
      name,
      code: '90686',
      manufacturer: 'Seqirus',
      category: 'Vaccines',
      priceInCents: 4500,
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ name, code: '90686', manufacturer: 'Seqirus', category: { name: 'Vaccines' }, priceInCents: 4500 });
    const id = added.body.id as string;
    expect((await api(employee, 'GET', `/v1/inventories/charge-items?q=${encodeURIComponent(name)}`)).body.chargeItems).toEqual([added.body]);

    const bad = await api(admin, 'POST', '/v1/inventories/charge-items', { name: ' ', priceInCents: 12.5 });
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrors).toEqual({ name: 'Name is required', priceInCents: 'Price must be an amount from $0.00 to $100,000.00' });
    expect((await api(admin, 'POST', '/v1/inventories/charge-items', { name, priceInCents: 10_000_001 })).body.fieldErrors).toEqual({
      priceInCents: 'Price must be an amount from $0.00 to $100,000.00',
    });
    expect((await api(employee, 'POST', '/v1/inventories/charge-items', { name, priceInCents: 1 })).status).toBe(403);
    expect((await api(employee, 'PUT', `/v1/inventories/charge-items/${id}`, { name, priceInCents: 1 })).status).toBe(403);
    expect((await api(employee, 'DELETE', `/v1/inventories/charge-items/${id}`)).status).toBe(403);

    const changed = await api(admin, 'PUT', `/v1/inventories/charge-items/${id}`, {
      name,
      code: '',
      manufacturer: null,
      category: 'Vaccines',
      priceInCents: 5000,
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ id, name, code: '', manufacturer: null, category: { name: 'Vaccines' }, priceInCents: 5000 });
    expect((await api(admin, 'PUT', '/v1/inventories/charge-items/chg-missing', { name, priceInCents: 1 })).status).toBe(404);

    expect((await api(admin, 'DELETE', `/v1/inventories/charge-items/${id}`)).status).toBe(204);
    expect((await api(employee, 'GET', `/v1/inventories/charge-items?q=${encodeURIComponent(name)}`)).body.chargeItems).toEqual([]);
    expect((await api(admin, 'DELETE', `/v1/inventories/charge-items/${id}`)).status).toBe(404);
  });

  it('searches charge items as provider/charge_items?q= does and keeps the spec defaults until changed by an admin', async () => {
    const found = await api(employee, 'GET', '/v1/inventories/charge-items?q=strep');
    expect(found.status).toBe(200);
    expect(found.body.chargeItems).toEqual([
      { id: 'chg-strep-87880', name: 'Rapid strep test', code: '87880', manufacturer: 'Abbott', priceInCents: 3500, category: { name: 'In-house labs' } },
    ]);
    expect((await api(employee, 'GET', '/v1/inventories/charge-items?q=99213')).body.chargeItems.map((c: { id: string }) => c.id)).toEqual([
      'chg-office-visit-99213',
    ]);
    expect((await api(employee, 'PUT', '/v1/inventories/settings', { defaultSalesTaxPercentage: 50 })).status).toBe(403);
    expect((await api(admin, 'PUT', '/v1/inventories/settings', { defaultSalesTaxPercentage: 101 })).status).toBe(400);
  });
});

describe('sales notes', () => {
  it('price each line from the catalog and add the sales tax of the inventory settings', async () => {
    expect((await api(admin, 'PUT', '/v1/inventories/settings', { defaultSalesTaxPercentage: 8.25 })).body.defaultSalesTaxPercentage).toBe(8.25);
    const inventoryId = await newInventoryItem(10, 199);
    // A price sent by the window is ignored: the catalog's price counts.
    const saved = await draftSale([
      { kind: 'charge', refId: 'chg-office-visit-99213', quantity: 1, unitPriceInCents: 1 },
      { kind: 'inventory', refId: inventoryId, quantity: 3 },
    ]);
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({
      items: [
        {
          kind: 'charge',
          refId: 'chg-office-visit-99213',
          quantity: 1,
          name: 'Office visit, established patient',
          code: '99213',
          unitPriceInCents: 15000,
          lineTotalInCents: 15000,
        },
        { kind: 'inventory', refId: inventoryId, quantity: 3, unitPriceInCents: 199, lineTotalInCents: 597 },
      ],
      subtotalInCents: 15597,
      salesTaxPercentage: 8.25,
      // 15,597 × 8.25% = 1,286.75 cents → 1,287
      taxInCents: 1287,
      totalInCents: 16884,
    });
    const empty = await draftSale([]);
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('Add at least one item to the sale.');
    expect((await draftSale([{ kind: 'charge', refId: 'chg-nope', quantity: 1 }])).status).toBe(400);
  });

  it('signing takes the inventory items from stock once, never below zero, and leaves the sale read-only', async () => {
    const inventoryId = await newInventoryItem(5, 100);
    const sale = await draftSale([
      { kind: 'inventory', refId: inventoryId, quantity: 2 },
      { kind: 'charge', refId: 'chg-strep-87880', quantity: 1 },
    ]);
    const noteId = sale.body.noteId;
    const signed = await api(employee, 'POST', `/v1/notes/${noteId}/sign`, { noteVersion: sale.body.noteVersion });
    expect(signed.status).toBe(200);
    expect(signed.body.status).toBe('SIGNED');
    expect(await stockOf(inventoryId)).toBe(3);
    const history = (await api(employee, 'GET', `/v1/inventories/restocks?inventoryId=${inventoryId}`)).body.restocks;
    expect(history).toMatchObject([{ change: -2, reasonForEditing: 'Sold on a sales note', noteId }]);

    // A second sign, a stale one, a save, an update and an addendum move nothing.
    expect((await api(employee, 'POST', `/v1/notes/${noteId}/sign`, { noteVersion: signed.body.noteVersion })).status).toBe(400);
    expect((await api(employee, 'POST', `/v1/notes/${noteId}/sign`, { noteVersion: sale.body.noteVersion })).status).toBe(400);
    expect(
      (
        await api(employee, 'POST', `/v1/notes/${noteId}`, {
          noteVersion: signed.body.noteVersion,
          data: { items: [{ kind: 'inventory', refId: inventoryId, quantity: 1 }] },
        })
      ).status,
    ).toBe(400);
    const update = await api(admin, 'POST', `/v1/notes/${noteId}/update-signed-note`, {
      noteVersion: signed.body.noteVersion,
      text: 'x',
      formattedText: '<p>x</p>',
    });
    expect(update.status).toBe(400);
    expect(update.body.message).toBe('A signed sale cannot be changed.');
    expect(
      (await api(admin, 'POST', `/v1/notes/${noteId}/addend`, { noteVersion: signed.body.noteVersion, text: 'x', formattedText: '<p>x</p>' })).status,
    ).toBe(400);
    expect(await stockOf(inventoryId)).toBe(3);

    // More than the stock holds: refused with the item's name, nothing taken, the sale stays a draft.
    const tooMany = await draftSale([{ kind: 'inventory', refId: inventoryId, quantity: 4 }]);
    const refused = await api(employee, 'POST', `/v1/notes/${tooMany.body.noteId}/sign`, { noteVersion: tooMany.body.noteVersion });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(`There is not enough Cetirizine ${run} 10 mg in stock for this sale.`);
    expect(await stockOf(inventoryId)).toBe(3);
    expect((await api(employee, 'GET', `/v1/notes/${tooMany.body.noteId}`)).body.status).toBe('DRAFT');

    // Two signs racing over the last units: exactly one wins.
    const a = await draftSale([{ kind: 'inventory', refId: inventoryId, quantity: 3 }]);
    const b = await draftSale([{ kind: 'inventory', refId: inventoryId, quantity: 3 }]);
    const results = await Promise.all([a, b].map((s) => api(employee, 'POST', `/v1/notes/${s.body.noteId}/sign`, { noteVersion: s.body.noteVersion })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(await stockOf(inventoryId)).toBe(0);
  });
});
