import { describe, expect, it } from 'vitest';
import { subjectOfText, tupleText } from './relationship-text';

describe('relationship texts', () => {
  it('reads a subject id or a subject set as Keto writes them', () => {
    expect(subjectOfText(' ada ')).toEqual({ id: 'ada' });
    expect(subjectOfText('Group:dev#members')).toEqual({ set: { namespace: 'Group', object: 'dev', relation: 'members' } });
    expect(subjectOfText('Folder:docs/#')).toEqual({ set: { namespace: 'Folder', object: 'docs/', relation: '' } });
    expect(subjectOfText('   ')).toBeNull();
  });

  it('writes a relationship as namespace:object#relation@subject', () => {
    expect(tupleText({ namespace: 'File', object: 'a', relation: 'viewers', subject_id: 'ada' })).toBe('File:a#viewers@ada');
    expect(tupleText({ namespace: 'File', object: 'a', relation: 'parents', subject_set: { namespace: 'Folder', object: 'd', relation: '' } })).toBe('File:a#parents@Folder:d#');
  });
});
