/*
 * ONC high-priority drug–drug interactions: the 15 interactions an expert panel convened for the
 * Office of the National Coordinator for Health IT judged should alert in every EHR.
 *
 * Source: Phansalkar S, Desai AA, Bell D, et al. "High-priority drug–drug interactions for use in
 * electronic health records." J Am Med Inform Assoc. 2012;19(5):735–743.
 * doi:10.1136/amiajnl-2011-000612 (PMID 22539083), published online 26 April 2012. The pair names
 * follow the list as later studies re-tested it (McEvoy et al., JAMIA 2017;24(2):331–338,
 * doi:10.1093/jamia/ocw114; AJHP 2022;79(13):1086–1095, table 4).
 *
 * Each side lists FDA [EPC] classes and ingredients; a drug belongs to a side when one of its
 * ingredients is listed or carries a listed class. Member ingredients are the common US ones of
 * each group, not an exhaustive knowledge base. A practice can load a newer or longer list in the
 * same shape (TSV, README "Allergy and interaction checks") with `npm run import:codes -- ddi <file>`.
 */
import type { DdiPair } from '../drug-safety/drug-knowledge.js';

export const ONC_DDI_LABEL = 'ONC high-priority drug–drug interactions (Phansalkar et al., JAMIA 2012)';
export const ONC_DDI_DATE = '2012-04-26';

const CONTRAINDICATED = 'Contraindicated';
const MAOI = {
  label: 'MAO inhibitors',
  classes: ['Monoamine Oxidase Inhibitor [EPC]'],
  ingredients: ['isocarboxazid', 'phenelzine', 'procarbazine', 'rasagiline', 'selegiline', 'tranylcypromine'],
};
const STRONG_3A4_AND_PI = {
  label: 'strong CYP3A4 inhibitors and protease inhibitors',
  classes: ['Protease Inhibitor [EPC]'],
  ingredients: [
    'atazanavir',
    'clarithromycin',
    'cobicistat',
    'darunavir',
    'fosamprenavir',
    'indinavir',
    'itraconazole',
    'ketoconazole',
    'lopinavir',
    'nefazodone',
    'nelfinavir',
    'posaconazole',
    'ritonavir',
    'saquinavir',
    'tipranavir',
    'voriconazole',
  ],
};
const CYP1A2_STRONG = { label: 'strong CYP1A2 inhibitors', classes: [], ingredients: ['ciprofloxacin', 'fluvoxamine'] };
const QT = {
  label: 'high-risk QT-prolonging agents',
  classes: [],
  ingredients: [
    'amiodarone',
    'arsenic trioxide',
    'cisapride',
    'dofetilide',
    'dronedarone',
    'droperidol',
    'ibutilide',
    'pimozide',
    'quinidine',
    'sotalol',
    'thioridazine',
    'ziprasidone',
  ],
};

export const ONC_DDI: readonly DdiPair[] = [
  {
    id: 'onc-01',
    a: {
      label: 'amphetamine and derivatives',
      classes: ['Central Nervous System Stimulant [EPC]'],
      ingredients: ['amphetamine', 'dexmethylphenidate', 'dextroamphetamine', 'lisdexamfetamine', 'methamphetamine', 'methylphenidate', 'phentermine'],
    },
    b: MAOI,
    severity: CONTRAINDICATED,
    effect: 'hypertensive crisis',
  },
  {
    id: 'onc-02',
    a: { label: 'atazanavir', classes: [], ingredients: ['atazanavir'] },
    b: {
      label: 'proton pump inhibitors',
      classes: ['Proton Pump Inhibitor [EPC]'],
      ingredients: ['dexlansoprazole', 'esomeprazole', 'lansoprazole', 'omeprazole', 'pantoprazole', 'rabeprazole'],
    },
    severity: CONTRAINDICATED,
    effect: 'much lower atazanavir levels and loss of HIV control',
  },
  {
    id: 'onc-03',
    a: { label: 'febuxostat', classes: [], ingredients: ['febuxostat'] },
    b: { label: 'azathioprine and mercaptopurine', classes: [], ingredients: ['azathioprine', 'mercaptopurine'] },
    severity: CONTRAINDICATED,
    effect: 'mercaptopurine toxicity with bone marrow suppression',
  },
  {
    id: 'onc-04',
    a: {
      label: 'selective serotonin reuptake inhibitors',
      classes: ['Serotonin Reuptake Inhibitor [EPC]'],
      ingredients: ['citalopram', 'escitalopram', 'fluoxetine', 'fluvoxamine', 'paroxetine', 'sertraline', 'vilazodone'],
    },
    b: MAOI,
    severity: CONTRAINDICATED,
    effect: 'serotonin syndrome',
  },
  {
    id: 'onc-05',
    a: { label: 'irinotecan', classes: [], ingredients: ['irinotecan'] },
    b: STRONG_3A4_AND_PI,
    severity: CONTRAINDICATED,
    effect: 'irinotecan toxicity (neutropenia, diarrhea)',
  },
  {
    id: 'onc-06',
    a: { label: 'narcotic analgesics', classes: [], ingredients: ['fentanyl', 'meperidine', 'methadone', 'tapentadol', 'tramadol'] },
    b: MAOI,
    severity: CONTRAINDICATED,
    effect: 'serotonin syndrome, or respiratory depression and hypotension',
  },
  {
    id: 'onc-07',
    a: {
      label: 'tricyclic antidepressants',
      classes: ['Tricyclic Antidepressant [EPC]'],
      ingredients: ['amitriptyline', 'amoxapine', 'clomipramine', 'desipramine', 'doxepin', 'imipramine', 'nortriptyline', 'protriptyline', 'trimipramine'],
    },
    b: MAOI,
    severity: CONTRAINDICATED,
    effect: 'serotonin syndrome and hypertensive crisis',
  },
  {
    id: 'onc-08',
    a: QT,
    b: QT,
    severity: CONTRAINDICATED,
    effect: 'added QT prolongation and torsades de pointes',
  },
  {
    id: 'onc-09',
    a: { label: 'ramelteon', classes: [], ingredients: ['ramelteon'] },
    b: CYP1A2_STRONG,
    severity: CONTRAINDICATED,
    effect: 'many-fold higher ramelteon levels and excessive sedation',
  },
  {
    id: 'onc-10',
    a: {
      label: 'strong CYP3A4 inducers',
      classes: [],
      ingredients: ['carbamazepine', 'phenobarbital', 'phenytoin', 'rifabutin', 'rifampin', "st. john's wort"],
    },
    b: {
      label: 'protease inhibitors',
      classes: ['Protease Inhibitor [EPC]'],
      ingredients: ['atazanavir', 'darunavir', 'fosamprenavir', 'indinavir', 'lopinavir', 'nelfinavir', 'ritonavir', 'saquinavir', 'tipranavir'],
    },
    severity: CONTRAINDICATED,
    effect: 'loss of protease inhibitor effect and HIV resistance',
  },
  {
    id: 'onc-11',
    a: { label: 'lovastatin and simvastatin', classes: [], ingredients: ['lovastatin', 'simvastatin'] },
    b: STRONG_3A4_AND_PI,
    severity: CONTRAINDICATED,
    effect: 'myopathy and rhabdomyolysis',
  },
  {
    id: 'onc-12',
    a: STRONG_3A4_AND_PI,
    b: {
      label: 'ergot alkaloids',
      classes: ['Ergotamine Derivative [EPC]'],
      ingredients: ['dihydroergotamine', 'ergonovine', 'ergotamine', 'methylergonovine'],
    },
    severity: CONTRAINDICATED,
    effect: 'ergotism: vasospasm and ischemia',
  },
  {
    id: 'onc-13',
    a: { label: 'tizanidine', classes: [], ingredients: ['tizanidine'] },
    b: CYP1A2_STRONG,
    severity: CONTRAINDICATED,
    effect: 'many-fold higher tizanidine levels: hypotension and sedation',
  },
  {
    id: 'onc-14',
    a: { label: 'tranylcypromine', classes: [], ingredients: ['tranylcypromine'] },
    b: { label: 'procarbazine', classes: [], ingredients: ['procarbazine'] },
    severity: CONTRAINDICATED,
    effect: 'hypertensive crisis',
  },
  {
    id: 'onc-15',
    a: {
      label: 'triptans',
      classes: ['Serotonin-1b and Serotonin-1d Receptor Agonist [EPC]'],
      ingredients: ['almotriptan', 'eletriptan', 'frovatriptan', 'naratriptan', 'rizatriptan', 'sumatriptan', 'zolmitriptan'],
    },
    b: MAOI,
    severity: CONTRAINDICATED,
    effect: 'serotonin syndrome and higher triptan levels',
  },
];
