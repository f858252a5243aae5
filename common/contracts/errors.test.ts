import { describe, expect, it } from 'vitest';
import { errorResponse, errorResponses, RECORD_CALL_ERRORS } from './errors';

describe('errorResponses', () => {
  it('maps each status to the one error schema, in the order given', () => {
    const map = errorResponses(400, 404);
    expect(Object.keys(map)).toEqual(['400', '404']);
    expect(map[400]).toBe(errorResponse);
    expect(map[404]).toBe(errorResponse);
  });
  it('a record call may answer 400, 401, 403, 404 and 409', () => {
    expect(Object.keys(RECORD_CALL_ERRORS)).toEqual(['400', '401', '403', '404', '409']);
  });
});
