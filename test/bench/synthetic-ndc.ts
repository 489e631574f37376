import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/*
 * A synthetic FDA NDC directory (product.txt + package.txt, the FDA's tab-delimited layout) of
 * realistic size and shape: generics under many labelers (the same ingredient dozens of times,
 * as in the real file), branded products with invented names, salts and combinations, 1–4
 * packages per product. Labeler codes start at 20000 and no name is a real product: these are
 * not real NDCs.
 */

const INGREDIENTS = [
  'acetaminophen',
  'acyclovir',
  'albuterol',
  'alendronate',
  'allopurinol',
  'alprazolam',
  'amiodarone',
  'amitriptyline',
  'amlodipine',
  'amoxicillin',
  'amphetamine',
  'anastrozole',
  'aripiprazole',
  'atenolol',
  'atorvastatin',
  'azithromycin',
  'baclofen',
  'benazepril',
  'benzonatate',
  'bisoprolol',
  'budesonide',
  'bumetanide',
  'bupropion',
  'buspirone',
  'carbamazepine',
  'carbidopa',
  'carvedilol',
  'cefdinir',
  'cefuroxime',
  'celecoxib',
  'cephalexin',
  'cetirizine',
  'chlorthalidone',
  'ciprofloxacin',
  'citalopram',
  'clarithromycin',
  'clindamycin',
  'clonazepam',
  'clonidine',
  'clopidogrel',
  'clotrimazole',
  'cyclobenzaprine',
  'dexamethasone',
  'dexmethylphenidate',
  'diazepam',
  'diclofenac',
  'dicyclomine',
  'digoxin',
  'diltiazem',
  'diphenhydramine',
  'divalproex',
  'donepezil',
  'doxazosin',
  'doxycycline',
  'duloxetine',
  'enalapril',
  'entecavir',
  'escitalopram',
  'esomeprazole',
  'estradiol',
  'ezetimibe',
  'famotidine',
  'fenofibrate',
  'finasteride',
  'fluconazole',
  'fluoxetine',
  'fluticasone',
  'folic acid',
  'furosemide',
  'gabapentin',
  'glimepiride',
  'glipizide',
  'glyburide',
  'guanfacine',
  'haloperidol',
  'hydralazine',
  'hydrochlorothiazide',
  'hydrocodone',
  'hydrocortisone',
  'hydroxychloroquine',
  'hydroxyzine',
  'ibuprofen',
  'indomethacin',
  'irbesartan',
  'isosorbide',
  'ketoconazole',
  'ketorolac',
  'labetalol',
  'lamotrigine',
  'lansoprazole',
  'letrozole',
  'levetiracetam',
  'levocetirizine',
  'levofloxacin',
  'levothyroxine',
  'lidocaine',
  'linezolid',
  'liothyronine',
  'lisinopril',
  'lithium',
  'loratadine',
  'lorazepam',
  'losartan',
  'lovastatin',
  'meclizine',
  'medroxyprogesterone',
  'meloxicam',
  'memantine',
  'metformin',
  'methadone',
  'methimazole',
  'methocarbamol',
  'methotrexate',
  'methylphenidate',
  'methylprednisolone',
  'metoclopramide',
  'metolazone',
  'metoprolol',
  'metronidazole',
  'minocycline',
  'mirtazapine',
  'montelukast',
  'morphine',
  'mupirocin',
  'nabumetone',
  'naltrexone',
  'naproxen',
  'nebivolol',
  'nifedipine',
  'nitrofurantoin',
  'nitroglycerin',
  'norethindrone',
  'nortriptyline',
  'nystatin',
  'olanzapine',
  'olmesartan',
  'omeprazole',
  'ondansetron',
  'oxcarbazepine',
  'oxybutynin',
  'oxycodone',
  'pantoprazole',
  'paroxetine',
  'penicillin',
  'phenytoin',
  'pioglitazone',
  'potassium chloride',
  'pramipexole',
  'pravastatin',
  'prednisolone',
  'prednisone',
  'pregabalin',
  'primidone',
  'prochlorperazine',
  'promethazine',
  'propranolol',
  'quetiapine',
  'quinapril',
  'raloxifene',
  'ramipril',
  'ranolazine',
  'risperidone',
  'rizatriptan',
  'ropinirole',
  'rosuvastatin',
  'sertraline',
  'sildenafil',
  'simvastatin',
  'sitagliptin',
  'sodium chloride',
  'spironolactone',
  'sucralfate',
  'sulfamethoxazole',
  'sumatriptan',
  'tacrolimus',
  'tadalafil',
  'tamoxifen',
  'tamsulosin',
  'telmisartan',
  'terazosin',
  'terbinafine',
  'testosterone',
  'timolol',
  'tizanidine',
  'topiramate',
  'torsemide',
  'tramadol',
  'trazodone',
  'triamcinolone',
  'triamterene',
  'valacyclovir',
  'valproic acid',
  'valsartan',
  'venlafaxine',
  'verapamil',
  'warfarin',
  'zolpidem',
  'dextrose',
  'heparin',
  'insulin glargine',
];
const SALTS = [
  '',
  '',
  '',
  'hydrochloride',
  'sodium',
  'potassium',
  'calcium',
  'sulfate',
  'maleate',
  'besylate',
  'tartrate',
  'succinate',
  'citrate',
  'mesylate',
  'hyclate',
  'fumarate',
];
const FORMS = [
  'TABLET',
  'TABLET, FILM COATED',
  'TABLET, EXTENDED RELEASE',
  'CAPSULE',
  'CAPSULE, EXTENDED RELEASE',
  'SOLUTION',
  'INJECTION, SOLUTION',
  'SUSPENSION',
  'CREAM',
  'OINTMENT',
  'GEL',
  'AEROSOL, METERED',
  'SPRAY',
  'PATCH',
  'LOTION',
  'POWDER, FOR SOLUTION',
];
const ROUTE_OF: Record<string, string> = {
  SOLUTION: 'ORAL',
  'INJECTION, SOLUTION': 'INTRAVENOUS',
  CREAM: 'TOPICAL',
  OINTMENT: 'TOPICAL',
  GEL: 'TOPICAL',
  LOTION: 'TOPICAL',
  PATCH: 'TRANSDERMAL',
  SPRAY: 'NASAL',
  'AEROSOL, METERED': 'RESPIRATORY (INHALATION)',
};
const STRENGTHS = [
  '0.5',
  '1',
  '2',
  '2.5',
  '5',
  '10',
  '12.5',
  '20',
  '25',
  '40',
  '50',
  '75',
  '100',
  '150',
  '200',
  '250',
  '300',
  '400',
  '500',
  '600',
  '750',
  '800',
  '1000',
];
const UNITS = ['mg/1', 'mg/1', 'mg/1', 'mg/mL', 'mg/5mL', 'g/100g', 'ug/1', '[iU]/mL', 'mg/g'];
const SYLLABLES = [
  'ab',
  'al',
  'ar',
  'ba',
  'bel',
  'cor',
  'da',
  'dex',
  'el',
  'fa',
  'gen',
  'hy',
  'ix',
  'ka',
  'lo',
  'lu',
  'ma',
  'mo',
  'na',
  'neo',
  'no',
  'ox',
  'pa',
  'pro',
  'ra',
  're',
  'sa',
  'so',
  'ta',
  'tri',
  'tu',
  'va',
  'vel',
  'xa',
  'zo',
  'zy',
];
const SUFFIXES = ['', '', '', '', 'XR', 'ER', 'SR', 'ODT', 'DS', 'HCT'];
const PACKAGES = ['BOTTLE', 'BLISTER PACK', 'CARTON', 'VIAL', 'TUBE', 'BOX'];

function mulberry32(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const title = (s: string) => s.replace(/\b[a-z]/g, (c) => c.toUpperCase());

export interface SyntheticNdc {
  productText: string;
  packageText: string;
  products: number;
  packages: number;
  /** Names that occur in the directory, for realistic queries. */
  brandNames: string[];
  ndcs: string[];
}

/** `products` products with about 2.1 packages each (the FDA file's ratio), deterministic per seed. */
export function syntheticNdcDirectory(products = 120_000, seed = 7): SyntheticNdc {
  const rand = mulberry32(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)];
  const brandName = () => {
    const n = 2 + Math.floor(rand() * 2);
    return title(Array.from({ length: n }, () => pick(SYLLABLES)).join(''));
  };
  const labelers = Array.from(
    { length: 4000 },
    () => `${brandName()} ${pick(['Pharmaceuticals, Inc.', 'Laboratories', 'Pharma LLC', 'Health', 'Medical Products'])}`,
  );
  const productRows = [
    'PRODUCTID\tPRODUCTNDC\tPRODUCTTYPENAME\tPROPRIETARYNAME\tPROPRIETARYNAMESUFFIX\tNONPROPRIETARYNAME\tDOSAGEFORMNAME\tROUTENAME\tSTARTMARKETINGDATE\tENDMARKETINGDATE\tMARKETINGCATEGORYNAME\tAPPLICATIONNUMBER\tLABELERNAME\tSUBSTANCENAME\tACTIVE_NUMERATOR_STRENGTH\tACTIVE_INGRED_UNIT\tPHARM_CLASSES\tDEASCHEDULE\tNDC_EXCLUDE_FLAG\tLISTING_RECORD_CERTIFIED_THROUGH',
  ];
  const packageRows = ['PRODUCTID\tPRODUCTNDC\tNDCPACKAGECODE\tPACKAGEDESCRIPTION\tSTARTMARKETINGDATE\tENDMARKETINGDATE\tNDC_EXCLUDE_FLAG\tSAMPLE_PACKAGE'];
  const brandNames: string[] = [];
  const ndcs: string[] = [];
  let packages = 0;
  for (let i = 0; i < products; i++) {
    // 5-3-2 NDCs: labeler 20000+, product code unique within the labeler.
    const labelerNo = i % labelers.length;
    const productNdc = `${20000 + labelerNo}-${String(Math.floor(i / labelers.length)).padStart(3, '0')}`;
    const productId = `${productNdc}_${((i * 2654435761) >>> 0).toString(16)}`;
    const ingredients = rand() < 0.12 ? [pick(INGREDIENTS), pick(INGREDIENTS)] : [pick(INGREDIENTS)];
    const salt = pick(SALTS);
    const generic = ingredients.map((g, k) => (k === 0 && salt ? `${g} ${salt}` : g)).join(' and ');
    const branded = rand() < 0.45;
    const brand = branded ? brandName() : title(generic);
    if (branded) brandNames.push(brand);
    const form = pick(FORMS);
    const strength = ingredients.map(() => pick(STRENGTHS)).join('; ');
    const unit = ingredients.map(() => pick(UNITS)).join('; ');
    const excluded = rand() < 0.01 ? 'Y' : 'N';
    productRows.push(
      [
        productId,
        productNdc,
        'HUMAN PRESCRIPTION DRUG',
        brand,
        branded ? pick(SUFFIXES) : '',
        title(generic),
        form,
        ROUTE_OF[form] ?? 'ORAL',
        '20190101',
        '',
        branded ? 'NDA' : 'ANDA',
        `ANDA${String(i).padStart(6, '0')}`,
        labelers[labelerNo],
        generic.toUpperCase(),
        strength,
        unit,
        '',
        '',
        excluded,
        '20271231',
      ].join('\t'),
    );
    const count = rand() < 0.3 ? 1 : rand() < 0.6 ? 2 : rand() < 0.75 ? 3 : 4;
    for (let k = 1; k <= count; k++) {
      const code = `${productNdc}-${String(k).padStart(2, '0')}`;
      ndcs.push(code);
      const qty = pick(['30', '90', '100', '500', '1000', '10', '1']);
      packageRows.push([productId, productNdc, code, `${qty} ${form.split(',')[0]} in 1 ${pick(PACKAGES)} (${code})`, '20190101', '', 'N', 'N'].join('\t'));
      packages++;
    }
  }
  return { productText: productRows.join('\n'), packageText: packageRows.join('\n'), products, packages, brandNames, ndcs };
}

/** Writes the directory as product.txt and package.txt into `dir` (created when missing). */
export function writeSyntheticNdcDirectory(dir: string, products?: number): SyntheticNdc {
  const data = syntheticNdcDirectory(products);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'product.txt'), data.productText, 'latin1');
  writeFileSync(join(dir, 'package.txt'), data.packageText, 'latin1');
  return data;
}
