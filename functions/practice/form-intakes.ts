// The form intake items live in functions/data/forms/; this path stays for forms.ts.
export { formIntakeKey, formMappingKey, formNoteOfIntake, formQuestionsKey } from '../data/forms/form-intakes.js';
