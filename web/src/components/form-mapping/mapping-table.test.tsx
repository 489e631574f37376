import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { MappingTable, type MappingTableRow } from './mapping-table.js';

const rows: (MappingTableRow & { answer: string })[] = [
  { id: 'q1', title: 'Smoker?', answer: 'No', enabled: true, section: 'SOCIAL_HISTORY', titleOverride: '' },
  { id: 'q2', title: 'Allergies', answer: 'Penicillin', enabled: false, section: 'ALLERGIES', titleOverride: '' },
];

const table = (errors: Record<string, string> = {}) =>
  renderToStaticMarkup(
    <MappingTable
      rows={rows}
      errors={errors}
      onChange={() => undefined}
      aria-label="Mapping of Intake"
      addHeading="Add"
      nameOf={(r) => r.title}
      extraColumn={{ heading: 'Question and answer', render: (r) => r.answer }}
    />,
  );

describe('the answer-to-chart mapping table', () => {
  it('names each question’s controls after the question, with the extra column after Add', () => {
    const html = table();
    expect(html).toContain('aria-label="Mapping of Intake"');
    expect(html).toMatch(/<th scope="col">Add<\/th><th scope="col">Question and answer<\/th><th scope="col">Section<\/th><th scope="col">Title<\/th>/);
    expect(html).toContain('Add Smoker?');
    expect(html).toContain('Section for Allergies');
    expect(html).toContain('Title for Smoker?');
    expect(html).toContain('Penicillin');
  });

  it('lets a title be typed only for a section that takes one', () => {
    const html = table();
    const titleInputs = html.match(/<input[^>]*type="text"[^>]*>/g) ?? [];
    expect(titleInputs).toHaveLength(2);
    expect(titleInputs[0]).not.toContain('disabled');
    expect(titleInputs[1]).toContain('disabled');
  });

  it('shows a question’s error only while it is checked', () => {
    expect(table({ q1: 'Enter a title', q2: 'Choose a section' })).toContain('Enter a title');
    expect(table({ q1: 'Enter a title', q2: 'Choose a section' })).not.toContain('Choose a section');
  });
});
