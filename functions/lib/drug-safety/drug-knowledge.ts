import type { Allergen, AllergenRef } from '../../../shared/chart/drug-safety.js';

/** One side of an interaction: a drug belongs when one of its ingredients is listed or has a listed class. */
export interface DdiSide {
  label: string;
  classes: readonly string[];
  ingredients: readonly string[];
}
export interface DdiPair {
  id: string;
  a: DdiSide;
  b: DdiSide;
  severity: string;
  /** What the combination may do, in a clinician's words. */
  effect: string;
}

/** Serialized payloads of the importers (one gzip JSON object each). */
export interface DrugClassPayload {
  ingredients: [string, string[]][];
  brands: [string, string[]][];
}
export interface DdiPayload {
  pairs: DdiPair[];
}

/*
 * Salt, hydrate and ester words: "Sertraline hydrochloride" and "SERTRALINE HYDROCHLORIDE" are
 * sertraline for an allergy or an interaction. Dosage-form and unit words fall out because only
 * known ingredient and brand names are looked up.
 */
const SALT_WORDS = new Set(
  (
    'hydrochloride hcl dihydrochloride hydrobromide sodium potassium calcium magnesium besylate maleate mesylate succinate tartrate sulfate ' +
    'bisulfate hyclate monohydrate dihydrate trihydrate sesquihydrate anhydrous citrate fumarate bromide oxalate acetate phosphate ' +
    'propionate dipropionate furoate disodium monosodium lysine benzathine procaine erbumine macrocrystals hemifumarate hyclate'
  ).split(' '),
);

/** Lowercase words of a name, salts removed ("PENICILLIN G POTASSIUM" → "penicillin g"). */
export function ingredientKey(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9' .-]+/g, ' ')
    .split(/[\s-]+/)
    .map((w) => w.replace(/^[.']+|[.']+$/g, ''))
    .filter((w) => w && !SALT_WORDS.has(w))
    .join(' ');
}

const words = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9'.]+/g, ' ')
    .split(' ')
    .map((w) => w.replace(/^[.']+|[.']+$/g, ''))
    .filter(Boolean);

/** Allergens that are not drugs: found by the allergy form, never matched against a drug. */
const SUBSTANCES: readonly (readonly [string, string[]])[] = [
  ['Latex', ['natural rubber latex', 'rubber']],
  ['Peanut', ['peanuts', 'groundnut']],
  ['Tree nut', ['almond', 'walnut', 'cashew', 'pecan', 'nuts']],
  ['Shellfish', ['shrimp', 'crab', 'lobster']],
  ['Fish', []],
  ['Egg', ['eggs']],
  ['Milk', ['dairy', 'cow milk']],
  ['Soy', ['soybean']],
  ['Wheat', ['gluten']],
  ['Sesame', []],
  ['Bee venom', ['bee sting', 'insect sting', 'wasp']],
  ['Adhesive tape', ['adhesive', 'tape']],
  ['Nickel', []],
];

/** Everyday names of drug classes: what a patient or a chart says ("sulfa", "PCN"). */
const CLASS_ALIASES: Readonly<Record<string, readonly string[]>> = {
  'Penicillin-class Antibacterial [EPC]': ['penicillin', 'penicillins', 'pcn'],
  'Sulfonamide Antibacterial [EPC]': ['sulfa', 'sulfa drugs', 'sulfonamide', 'sulfonamides', 'sulfonamide antibiotics'],
  'Cephalosporin Antibacterial [EPC]': ['cephalosporin', 'cephalosporins'],
  'Nonsteroidal Anti-inflammatory Drug [EPC]': ['nsaid', 'nsaids'],
  'Opioid Agonist [EPC]': ['opioid', 'opioids', 'opiates', 'narcotics'],
  'Macrolide Antimicrobial [EPC]': ['macrolide', 'macrolides'],
  'Fluoroquinolone Antibacterial [EPC]': ['quinolone', 'quinolones', 'fluoroquinolones'],
  'HMG-CoA Reductase Inhibitor [EPC]': ['statin', 'statins'],
  'Tetracycline-class Drug [EPC]': ['tetracycline', 'tetracyclines'],
  'Angiotensin Converting Enzyme Inhibitor [EPC]': ['ace inhibitor', 'ace inhibitors'],
};

/** What an allergy covers once read: ingredients and classes (a substance covers no drug). */
export interface AllergyCoverage {
  ingredients: Set<string>;
  classes: Set<string>;
}

/**
 * Ingredients and their classes (from the FDA NDC directory or the built-in extract), brand names,
 * the everyday class names and non-drug allergens: reads a drug's name into ingredients, an
 * allergy into what it covers, and answers the allergy form's search.
 */
export class DrugKnowledge {
  private readonly classesByIngredient = new Map<string, string[]>();
  private readonly display = new Map<string, string>();
  private readonly brands = new Map<string, string[]>();
  private readonly membersByClass = new Map<string, string[]>();
  /** Known names (ingredient keys and brand keys) by their word count, longest first when reading a name. */
  private readonly maxWords: number;
  private readonly allergens: Allergen[];

  constructor(payload: DrugClassPayload) {
    let maxWords = 1;
    for (const [name, classes] of payload.ingredients) {
      const key = ingredientKey(name);
      if (!key) continue;
      const prior = this.classesByIngredient.get(key) ?? [];
      this.classesByIngredient.set(key, [...new Set([...prior, ...classes])]);
      if (!this.display.has(key))
        this.display.set(
          key,
          key.replace(/\b[a-z]/, (c) => c.toUpperCase()),
        );
      maxWords = Math.max(maxWords, key.split(' ').length);
    }
    for (const [brand, ingredients] of payload.brands) {
      const key = ingredientKey(brand);
      const known = ingredients.map(ingredientKey).filter((i) => this.classesByIngredient.has(i));
      if (!key || known.length === 0 || this.classesByIngredient.has(key)) continue;
      this.brands.set(key, known);
      maxWords = Math.max(maxWords, key.split(' ').length);
    }
    this.maxWords = maxWords;
    for (const [ingredient, classes] of this.classesByIngredient) {
      for (const c of classes) {
        const list = this.membersByClass.get(c) ?? [];
        list.push(ingredient);
        this.membersByClass.set(c, list);
      }
    }
    const classEntries: Allergen[] = [...this.membersByClass.keys()].sort().map((name) => ({
      kind: 'class',
      name,
      ...(CLASS_ALIASES[name] ? { aliases: [...CLASS_ALIASES[name]] } : {}),
      examples: this.membersByClass
        .get(name)!
        .slice()
        .sort()
        .slice(0, 4)
        .map((i) => this.displayName(i)),
    }));
    const ingredientEntries: Allergen[] = [...this.classesByIngredient.keys()].sort().map((key) => ({ kind: 'ingredient', name: this.displayName(key) }));
    const substanceEntries: Allergen[] = SUBSTANCES.map(([name, aliases]) => ({ kind: 'substance', name, ...(aliases.length ? { aliases } : {}) }));
    this.allergens = [...classEntries, ...substanceEntries, ...ingredientEntries];
  }

  get ingredientCount(): number {
    return this.classesByIngredient.size;
  }

  displayName(key: string): string {
    return this.display.get(key) ?? key;
  }

  classesOf(ingredient: string): readonly string[] {
    return this.classesByIngredient.get(ingredient) ?? [];
  }

  /** The known ingredients a drug's name or description mentions, by ingredient or brand name. */
  ingredientsIn(text: string): string[] {
    const w = words(text).filter((x) => !SALT_WORDS.has(x));
    const found = new Set<string>();
    for (let i = 0; i < w.length;) {
      let step = 1;
      for (let n = Math.min(this.maxWords, w.length - i); n >= 1; n--) {
        const phrase = w.slice(i, i + n).join(' ');
        if (this.classesByIngredient.has(phrase)) {
          found.add(phrase);
          step = n;
          break;
        }
        const brand = this.brands.get(phrase);
        if (brand) {
          for (const b of brand) found.add(b);
          step = n;
          break;
        }
      }
      i += step;
    }
    return [...found];
  }

  /**
   * What an allergy covers: its coded allergen when it has one; otherwise its name read as a class's
   * everyday name ("Penicillin", "Sulfa"), a class, or the ingredients it mentions.
   */
  coverage(name: string, allergen: AllergenRef | undefined): AllergyCoverage {
    const out: AllergyCoverage = { ingredients: new Set(), classes: new Set() };
    if (allergen) {
      if (allergen.kind === 'class') out.classes.add(allergen.name);
      if (allergen.kind === 'ingredient') {
        const key = ingredientKey(allergen.name);
        out.ingredients.add(key);
        for (const i of this.ingredientsIn(allergen.name)) out.ingredients.add(i);
      }
      return out;
    }
    const lowered = name
      .trim()
      .toLowerCase()
      .replace(/\s+allergy$/, '');
    for (const [cls, aliases] of Object.entries(CLASS_ALIASES)) {
      if (aliases.includes(lowered) || cls.toLowerCase() === lowered) out.classes.add(cls);
    }
    for (const cls of this.membersByClass.keys()) if (cls.toLowerCase() === lowered) out.classes.add(cls);
    if (out.classes.size === 0) for (const i of this.ingredientsIn(name)) out.ingredients.add(i);
    return out;
  }

  /** The allergy form's search: classes, substances and ingredients whose name or everyday name has a word starting with each typed word. */
  searchAllergens(keyword: string, limit = 25): Allergen[] {
    const typed = words(keyword);
    if (typed.length === 0) return [];
    const matches = (a: Allergen) =>
      [a.name, ...(a.aliases ?? [])].some((text) => {
        const have = words(text.replace(/\[[A-Za-z]+\]/g, ''));
        return typed.every((t) => have.some((h) => h.startsWith(t)));
      });
    const starts = (a: Allergen) => [a.name, ...(a.aliases ?? [])].some((text) => text.toLowerCase().startsWith(keyword.trim().toLowerCase()));
    const hits = this.allergens.filter(matches);
    // Names that start with what was typed first, then classes, substances and ingredients in that order.
    return [...hits.filter(starts), ...hits.filter((a) => !starts(a))].slice(0, limit);
  }
}

/** A drug's ingredients that belong to one side of an interaction. */
export function onSide(knowledge: DrugKnowledge, ingredients: readonly string[], side: DdiSide): string[] {
  const listed = new Set(side.ingredients.map(ingredientKey));
  return ingredients.filter((i) => listed.has(i) || knowledge.classesOf(i).some((c) => side.classes.includes(c)));
}
