import { describe, expect, it } from 'vitest';
import { rawMember } from './raw-member';

describe('rawMember', () => {
  it('answers a member exactly as it was written, past strings that look like JSON', () => {
    const data = '{ "b": "}\\"{[",\n\t"a": [1, {"x": "\\\\"}] }';
    const body = ` {"name": "a \\"data\\": {} ]", "data" :${data}\n, "other": 1.5e3 } `;
    expect(JSON.parse(body).data).toEqual(JSON.parse(data));
    expect(rawMember(body, 'data')).toBe(data);
    expect(rawMember(body, 'other')).toBe('1.5e3');
    expect(rawMember(body, 'missing')).toBeUndefined();
  });

  it('takes the last of repeated members, as JSON.parse does, and nothing of what is not an object', () => {
    expect(rawMember('{"data": {"v": 1}, "data": {"v": 2}}', 'data')).toBe('{"v": 2}');
    expect(rawMember('[{"data": 1}]', 'data')).toBeUndefined();
    expect(rawMember('{}', 'data')).toBeUndefined();
  });
});
