import { describe, expect, it } from 'vitest';
import { AppError, toHttpError } from './errors';

const dbError = (code: string) =>
  Object.assign(new Error('Failed query: insert into users values ($1) params: secret-hash'), {
    cause: Object.assign(new Error('driver'), { code }),
  });

describe('toHttpError', () => {
  it('keeps an AppError status and message', () => {
    expect(toHttpError(new AppError(409, 'taken'))).toMatchObject({
      status: 409,
      body: { message: 'taken' },
    });
  });

  it('maps database codes without leaking the SQL or its parameters', () => {
    const dup = toHttpError(dbError('23505'));
    expect(dup.status).toBe(409);
    expect(JSON.stringify(dup.body)).not.toContain('secret-hash');
    expect(toHttpError(dbError('23503')).status).toBe(400);
    expect(toHttpError(dbError('22P02')).status).toBe(400);
  });

  it('answers 503 when the database is unreachable', () => {
    expect(toHttpError(Object.assign(new Error('connect'), { code: 'ECONNREFUSED' })).status).toBe(503);
    expect(toHttpError(dbError('57P01')).status).toBe(503);
  });

  it('answers 500 with a fixed message for anything unexpected', () => {
    const r = toHttpError(new Error('TypeError deep inside with /etc/passwd'));
    expect(r).toMatchObject({ status: 500, body: { message: 'Internal server error' }, log: true });
  });
});
