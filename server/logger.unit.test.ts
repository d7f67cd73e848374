import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createLogger, maskUrl, REDACT_PATHS } from './logger';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  const log = pino({ level: 'info', redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, stream);
  return { log, lines };
}

describe('logger', () => {
  it('redacts cookies, authorization, session tokens, passwords and secrets', () => {
    const { log, lines } = capture();
    log.child({ reqId: 'r-1' }).info(
      {
        req: { headers: { cookie: 'ory_kratos_session=s', authorization: 'Bearer x', 'x-session-token': 't' } },
        res: { headers: { 'set-cookie': ['a=b'] } },
        body: { password: 'p', token: 't', secret: 's', name: 'kept' },
        password: 'p',
      },
      'line',
    );
    const line = JSON.stringify(lines[0]);
    for (const secret of ['ory_kratos_session=s', 'Bearer x', '"t"', '"p"', '"s"', 'a=b']) expect(line).not.toContain(secret);
    expect(lines[0]).toMatchObject({ reqId: 'r-1', body: { name: 'kept' } });
  });

  it('masks secrets in logged URLs', () => {
    expect(maskUrl('/.ory/self-service/logout?token=abc&return_to=/x')).toBe('/.ory/self-service/logout?token=[redacted]&return_to=/x');
    expect(maskUrl('/verify?flow=1&code=123456')).toBe('/verify?flow=1&code=[redacted]');
  });

  it('creates a pino logger at the configured level', () => {
    expect(createLogger('warn').level).toBe('warn');
  });
});
