import { describe, expect, it } from 'vitest';
import { noteResultContent } from './note-result.js';

describe('note-result screen', () => {
  it('announces a submitted lab order with the invoice hint', () => {
    expect(noteResultContent('lab', null)).toEqual({
      heading: 'Order submitted!',
      text: 'To find the invoice, click on "View Invoice" in the patient\'s card',
    });
  });

  it('shows the generic success text otherwise', () => {
    expect(noteResultContent('rx', 'ok')?.heading).toBe('Success!');
    expect(noteResultContent(null, null)?.text).toBe(
      'If this screen is showing after ordering a lab, it may take up to 10 minutes for the lab to show in the patient chart.',
    );
  });

  it('shows nothing when the order was canceled', () => {
    expect(noteResultContent('lab', 'canceled')).toBeNull();
  });
});
