import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { NETWORK_ERROR_MESSAGE } from '../../lib/api-error.js';
import { QueryTable } from './query-table.js';

const failed = { isPending: false, isError: true, error: new Error('upstream 503 from the contacts table') };

const table = (errorText?: string | ((error: Error | null) => string)) =>
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

  it('words the failure from the error when given a function', () => {
    expect(table((error) => `Refused: ${error?.message}`)).toContain('Refused: upstream 503 from the contacts table');
  });

  it('makes a sideways-scrolling table a focusable region named by its heading', () => {
    const html = renderToStaticMarkup(
      <QueryTable
        query={{ isPending: false, isError: false, error: null }}
        items={['a']}
        emptyText="None"
        label="Access history"
        columns={['When']}
        scrollRegion={{ labelledBy: 'history-title' }}
        fetching
        renderRow={(item) => (
          <tr key={item}>
            <td>{item}</td>
          </tr>
        )}
      />,
    );
    expect(html).toContain('<div class="tw-table-wrap" tabindex="0" role="region" aria-labelledby="history-title">');
    expect(html).toContain('data-fetching="true"');
  });
});
