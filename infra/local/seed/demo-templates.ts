import { placeholderKeys } from '../../../shared/templates/placeholders.js';
import type { Template } from '../../../shared/templates/template-schema.js';
import { putIfAbsent } from './seed-practice.js';

/** A few practice templates for the demo, with fixed ids so seeding twice changes nothing. */
const DEMO_TEMPLATES: Pick<Template, 'templateId' | 'templateName' | 'shortcut' | 'body'>[] = [
  {
    templateId: 'tpl-demo-soap',
    templateName: 'SOAP note',
    shortcut: 'soap',
    body: [
      '<h3>Subjective</h3><p>{{preferred name}} is a {{age}} year old {{gender}} presenting with ***.</p>',
      '<h3>Objective</h3><p>{{vitals}}</p><p>Exam: ***</p>',
      '<h3>Assessment</h3><p>***</p>',
      '<h3>Plan</h3><p>***</p>',
      '<p>Allergies: {{allergies}}</p><p>Current medications: {{current meds}}</p>',
      '<p>{{signature}}</p>',
    ].join(''),
  },
  {
    templateId: 'tpl-demo-annual',
    templateName: 'Annual physical',
    shortcut: 'annual',
    body: [
      '<h3>Annual physical - {{date}}</h3>',
      '<p>Patient: {{first name}} {{last name}}, DOB {{dob}} ({{age}})</p>',
      '<p>Vitals: {{vitals}}</p>',
      '<p>Medical history: {{medical history}}</p><p>Family history: {{family history}}</p><p>Social history: {{social history}}</p>',
      '<p>Allergies: {{allergies}}</p><p>Medications: {{current meds}}</p><p>Vaccines: {{vaccines}}</p>',
      '<p>Review of systems: ***</p><p>Counseling: ***</p>',
      '<p>{{signature}}</p>',
    ].join(''),
  },
  {
    templateId: 'tpl-demo-phone',
    templateName: 'Phone follow-up',
    shortcut: 'callback',
    body: '<p>Called {{preferred name}} at {{phone number}} on {{date}} at {{time}}.</p><p>Discussed: ***</p><p>{{signature}}</p>',
  },
];

export async function seedDemoTemplates(practiceId: string, now = new Date().toISOString()): Promise<number> {
  let written = 0;
  for (const t of DEMO_TEMPLATES) {
    const template: Template = {
      ...t,
      transformKeys: placeholderKeys(t.body),
      status: 'active',
      private: false,
      ownerUserId: 'seed',
      createdAt: now,
      updatedAt: now,
    };
    if (await putIfAbsent({ ...template, practiceId, sk: `TEMPLATE#${t.templateId}`, entityType: 'TEMPLATE' })) written++;
    await putIfAbsent({ practiceId, sk: `TEMPLATE_SHORTCUT#${t.shortcut}`, entityType: 'TEMPLATE_SHORTCUT', templateId: t.templateId });
  }
  return written;
}
