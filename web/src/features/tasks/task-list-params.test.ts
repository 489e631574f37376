import { describe, expect, it } from 'vitest';
import { parseTaskListParams, taskListQuery, withTaskParams } from './task-list-params.js';

const options = { view: 'mine' as const, me: 'u-me', pageSize: 25, statuses: ['READ', 'UNREAD', 'UPDATED', 'COMPLETED'] };

describe('task list query string', () => {
  it('reads space-separated statuses, keeps only known ones and sends them comma-joined', () => {
    const params = parseTaskListParams(new URLSearchParams('status=UNREAD UPDATED BOGUS&keyword=labs&offset=25&order=desc&sort=dueOn'), options);
    expect(params.status).toEqual(['UNREAD', 'UPDATED']);
    expect(taskListQuery(params)).toEqual({
      limit: 25,
      offset: 25,
      keyword: 'labs',
      sort: 'dueOn',
      order: 'desc',
      assigned: 'u-me',
      status: 'UNREAD,UPDATED',
      patientId: undefined,
    });
  });

  it('shows my tasks by default and everyone’s on the practice view', () => {
    expect(parseTaskListParams(new URLSearchParams(), options).assigned).toBe('u-me');
    expect(parseTaskListParams(new URLSearchParams(), { ...options, view: 'all' }).assigned).toBeNull();
    expect(parseTaskListParams(new URLSearchParams('assigned=u-2'), options).assigned).toBe('u-2');
  });

  it('falls back to page size 25 and the first page on nonsense', () => {
    const params = parseTaskListParams(new URLSearchParams('limit=-4&offset=abc&order=sideways'), options);
    expect([params.limit, params.offset, params.order]).toEqual([25, 0, null]);
  });

  it('goes back to the first page when a filter changes', () => {
    const next = withTaskParams(new URLSearchParams('offset=50&keyword=a'), { keyword: 'b' });
    expect(next.toString()).toBe('keyword=b');
    expect(withTaskParams(new URLSearchParams('keyword=b'), { offset: '25' }).toString()).toBe('keyword=b&offset=25');
  });
});
