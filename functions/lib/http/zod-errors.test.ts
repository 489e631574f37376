import { describe, expect, it } from 'vitest';
import * as z from '../../../shared/zod.js';
import { ValidationError } from '../errors.js';
import { parseOrThrow } from './zod-errors.js';

const Body = z.object({
  name: z.string().check(z.minLength(1, 'Name is required')),
  address: z.object({ zip: z.string().check(z.regex(/^\d{5}$/, 'Zip is not valid')) }),
});

function refusal(value: unknown, where?: string) {
  try {
    parseOrThrow(Body, value, where);
  } catch (error) {
    if (error instanceof ValidationError) return { message: error.message, fieldErrors: error.fieldErrors };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('parseOrThrow', () => {
  it('returns the parsed value', () => {
    expect(parseOrThrow(Body, { name: 'Nora', address: { zip: '02139' } })).toEqual({ name: 'Nora', address: { zip: '02139' } });
  });

  it('refuses with the first field in the message and every field in fieldErrors', () => {
    expect(refusal({ name: '', address: { zip: 'x' } })).toEqual({
      message: 'name: Name is required',
      fieldErrors: { name: 'Name is required', 'address.zip': 'Zip is not valid' },
    });
  });

  it('gives the bare message when the whole value is wrong, keyed by where it came from', () => {
    const query = refusal('not an object', 'query');
    expect(Object.keys(query.fieldErrors)).toEqual(['query']);
    expect(query.message).toBe(query.fieldErrors.query);
  });
});
