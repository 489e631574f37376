import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { NETWORK_ERROR_MESSAGE } from '../../lib/api-error.js';
import { QueryTable } from './query-table.js';

const failed = { isPending: false, isError: true, error: new Error('upstream 503 from the contacts table') };

const table = (errorText?: string) =>
  renderToStaticMarkup(
    <QueryTable
      query={failed}
      items={undefined}
      loadingLabel="Loading contacts"
      emptyText="No contacts yet."
      errorText={errorText}
      label="Contacts"
      columns={['Name']}
      renderRow={() => null}
    />,
  );

describe('a list screen table', () => {
  it('says the spec’s network message when the list cannot be read, never the server’s own text', () => {
    const html = table();
    expect(html).toContain(NETWORK_ERROR_MESSAGE);
    expect(html).not.toContain('upstream 503');
  });

  it('says the text it is given instead', () => {
    expect(table('The list could not be read')).toContain('The list could not be read');
  });
});
