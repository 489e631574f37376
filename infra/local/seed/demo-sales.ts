import { chargeItemRecord, inventoryItemRecord } from '../../../functions/data/inventory/inventory-repository.js';
import type { ChargeItem, InventoryItem } from '../../../shared/sales/sales-schema.js';
import { putIfAbsent } from './seed-practice.js';

/** The billing catalog's charge items a demo visit sells (prices in cents). */
export const DEMO_CHARGE_ITEMS: ChargeItem[] = [
  {
    id: 'chg-office-visit-99213',
    name: 'Office visit, established patient',
    code: '99213',
    manufacturer: null,
    priceInCents: 15_000,
    category: { name: 'Visits' },
  },
  { id: 'chg-flu-admin-90471', name: 'Immunization administration', code: '90471', manufacturer: null, priceInCents: 2_500, category: { name: 'Procedures' } },
  { id: 'chg-strep-87880', name: 'Rapid strep test', code: '87880', manufacturer: 'Abbott', priceInCents: 3_500, category: { name: 'In-house labs' } },
  {
    id: 'chg-venipuncture-36415',
    name: 'Venipuncture (lab draw)',
    code: '36415',
    manufacturer: null,
    priceInCents: 1_500,
    category: { name: 'In-house labs' },
  },
];

/** Dispensary stock (costPerUnit and finalPrice in cents). */
export const DEMO_INVENTORY: InventoryItem[] = [
  {
    inventoryId: 'inv-amoxicillin-500',
    genericName: 'Amoxicillin',
    brandName: null,
    strength: '500 mg',
    form: 'capsule',
    ndcNumber: '65862-0015-01',
    expirationDate: '12/2028',
    quantityInStock: 500,
    isHidden: false,
    costPerUnit: 12,
    finalPrice: 50,
  },
  {
    inventoryId: 'inv-ibuprofen-800',
    genericName: 'Ibuprofen',
    brandName: null,
    strength: '800 mg',
    form: 'tablet',
    ndcNumber: '67877-0321-01',
    expirationDate: '06/2029',
    quantityInStock: 500,
    isHidden: false,
    costPerUnit: 6,
    finalPrice: 25,
  },
  // Left out of the prescription selector (spec notes §5): expired, hidden, no NDC. Prednisone is at its restock level.
  {
    inventoryId: 'inv-cephalexin-250',
    genericName: 'Cephalexin',
    brandName: null,
    strength: '250 mg',
    form: 'capsule',
    ndcNumber: '68180-0121-01',
    expirationDate: '01/2024',
    quantityInStock: 40,
    isHidden: false,
    costPerUnit: 15,
    finalPrice: 40,
    restockLevel: 10,
  },
  {
    inventoryId: 'inv-azithromycin-250',
    genericName: 'Azithromycin',
    brandName: 'Zithromax',
    strength: '250 mg',
    form: 'tablet',
    ndcNumber: '0069-3060-86',
    expirationDate: '09/2029',
    quantityInStock: 60,
    isHidden: true,
    costPerUnit: 80,
    finalPrice: 150,
    restockLevel: 12,
  },
  {
    inventoryId: 'inv-saline-nasal',
    genericName: 'Saline nasal spray',
    brandName: null,
    strength: '0.65%',
    form: 'spray',
    ndcNumber: null,
    expirationDate: '10/2029',
    quantityInStock: 25,
    isHidden: false,
    costPerUnit: 200,
    finalPrice: 450,
    restockLevel: 5,
  },
  {
    inventoryId: 'inv-prednisone-10',
    genericName: 'Prednisone',
    brandName: null,
    strength: '10 mg',
    form: 'tablet',
    ndcNumber: '0054-4741-25',
    expirationDate: '11/2029',
    quantityInStock: 20,
    isHidden: false,
    costPerUnit: 4,
    finalPrice: 20,
    restockLevel: 20,
  },
  {
    inventoryId: 'inv-ondansetron-4',
    genericName: 'Ondansetron',
    brandName: 'Zofran ODT',
    strength: '4 mg',
    form: 'orally disintegrating tablet',
    ndcNumber: '68462-0157-13',
    expirationDate: '03/2028',
    quantityInStock: 300,
    isHidden: false,
    costPerUnit: 30,
    finalPrice: 120,
  },
];

export async function seedDemoSales(practiceId: string): Promise<void> {
  for (const item of DEMO_CHARGE_ITEMS) await putIfAbsent(chargeItemRecord(practiceId, item));
  for (const item of DEMO_INVENTORY) await putIfAbsent(inventoryItemRecord(practiceId, item));
}
