import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Button } from './button.js';

describe('a busy button', () => {
  it('is marked busy and disabled for assistive technology, and no longer submits its form', () => {
    const html = renderToStaticMarkup(
      <Button type="submit" variant="primary" isPending>
        Reviewed
      </Button>,
    );
    expect(html).toContain('aria-disabled="true"');
    expect(html).toContain('tw-button--pending');
    expect(html).toContain('type="button"');
    // Focus stays on it: it is not disabled outright.
    expect(html).not.toMatch(/\sdisabled=""/);
  });

  it('is named by its own words, not by an id that can leave the page', () => {
    const html = renderToStaticMarkup(
      <Button aria-label="Accept: Start Ibuprofen" isPending>
        Accept
      </Button>,
    );
    expect(html).toContain('aria-label="Accept: Start Ibuprofen"');
    expect(html).not.toContain('aria-labelledby');
  });

  it('submits again once it is done', () => {
    const html = renderToStaticMarkup(<Button type="submit">Reviewed</Button>);
    expect(html).toContain('type="submit"');
    expect(html).not.toContain('aria-disabled');
    expect(html).not.toContain('tw-button--pending');
  });
});
