import { describe, expect, it } from 'vitest';
import { seriesWithPrefix } from './metrics';

describe('seriesWithPrefix', () => {
  it("keeps another registry's series of one prefix, with their HELP and TYPE lines, and nothing else", () => {
    const exposition = [
      '# HELP nodejs_heap_size_total_bytes Process heap size from Node.js in bytes.',
      '# TYPE nodejs_heap_size_total_bytes gauge',
      'nodejs_heap_size_total_bytes 111083520',
      '',
      '# HELP localstack_courier_queued_messages Courier messages waiting to be sent',
      '# TYPE localstack_courier_queued_messages gauge',
      'localstack_courier_queued_messages 3',
      '',
      '# HELP localstack_db_pool_connections PostgreSQL pool connections by state',
      '# TYPE localstack_db_pool_connections gauge',
      'localstack_db_pool_connections{state="total"} 4',
      'localstack_db_pool_connections{state="idle"} 2',
      '',
    ].join('\n');
    expect(seriesWithPrefix(exposition, 'localstack_')).toBe(
      [
        '# HELP localstack_courier_queued_messages Courier messages waiting to be sent',
        '# TYPE localstack_courier_queued_messages gauge',
        'localstack_courier_queued_messages 3',
        '# HELP localstack_db_pool_connections PostgreSQL pool connections by state',
        '# TYPE localstack_db_pool_connections gauge',
        'localstack_db_pool_connections{state="total"} 4',
        'localstack_db_pool_connections{state="idle"} 2',
        '',
      ].join('\n'),
    );
    expect(seriesWithPrefix(exposition, 'absent_')).toBe('');
  });
});
