import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { SettingsList } from './settings-list.js';

interface Item {
  id: string;
  name: string;
}

const loaded = { isPending: false, isError: false, error: null };

const list = (query: { isPending: boolean; isError: boolean; error: Error | null }, items: Item[] | undefined, hasActions = false) =>
  renderToStaticMarkup(
    <SettingsList
      query={query}
      items={items}
      emptyText="No things yet."
      label="Things"
      columns={['Name', 'Status']}
      hasActions={hasActions}
      renderRow={(item) => (
        <tr key={item.id}>
          <td>{item.name}</td>
          <td>Active</td>
        </tr>
      )}
    />,
  );

describe('a settings list', () => {
  it('says it is loading, with the list named, while its query runs', () => {
    const html = list({ isPending: true, isError: false, error: null }, undefined);
    expect(html).toContain('role="status"');
    expect(html).toContain('Loading things');
    expect(html).not.toContain('<table');
  });

  it('shows why the list could not be read, as an alert', () => {
    const html = list({ isPending: false, isError: true, error: new Error('The server is not reachable') }, undefined);
    expect(html).toContain('role="alert"');
    expect(html).toContain('The server is not reachable');
    expect(html).not.toContain('<table');
  });

  it('says the list is empty instead of showing an empty table', () => {
    const html = list(loaded, []);
    expect(html).toContain('No things yet.');
    expect(html).not.toContain('<table');
  });

  it('shows a named table with one row per item, and an Actions column only when rows have actions', () => {
    const items = [
      { id: 'a', name: 'First' },
      { id: 'b', name: 'Second' },
    ];
    const plain = list(loaded, items);
    expect(plain).toContain('aria-label="Things"');
    expect(plain.match(/<tr>/g)).toHaveLength(3);
    expect(plain).toContain('<th scope="col">Name</th><th scope="col">Status</th></tr>');
    expect(plain).not.toContain('Actions');
    expect(list(loaded, items, true)).toContain('<th scope="col">Status</th><th scope="col">Actions</th>');
  });
});
