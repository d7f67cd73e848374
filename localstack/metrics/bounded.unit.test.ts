import { describe, expect, it } from 'vitest';
import { patternProblem } from './bounded';

describe('regex filters the event list runs in the database', () => {
  it('lets plain patterns through: classes, anchors, alternation, single quantifiers, lazy markers', () => {
    for (const p of ['^pass', 'password|code', '[a-z]+@example\\.com$', 'a{2,5}b', '(web|api)_?auth', 'x.*?y', '[(+*]+', 'a\\+b+', 'ab{1}(cd)?'])
      expect(patternProblem(p), p).toBeNull();
  });

  it('refuses what can make matching exponential or the automaton huge', () => {
    expect(patternProblem('(a+)+$')).toMatch(/group that itself repeats/);
    expect(patternProblem('((ab)*c)*')).toMatch(/group that itself repeats/);
    expect(patternProblem('(x+x+){2,}y')).toMatch(/group that itself repeats/);
    expect(patternProblem('((a|b)+)?')).toBeNull();
    expect(patternProblem('(a*)\\1')).toMatch(/back-reference/);
    expect(patternProblem('(a{1,100}b){1,101}')).toMatch(/more than 100 times/);
    expect(patternProblem('a{1000}')).toMatch(/more than 100 times/);
  });

  it('refuses invalid patterns and constructs one engine lacks', () => {
    expect(patternProblem('(')).toMatch(/not a valid/);
    expect(patternProblem('(?=a)b')).toMatch(/only one engine/);
    expect(patternProblem('\\p{L}')).toMatch(/only one engine/);
    expect(patternProblem('a'.repeat(201))).toMatch(/more than 200/);
  });
});
