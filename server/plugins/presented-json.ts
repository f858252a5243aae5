/**
 * A route's `serializerCompiler` for answers that a typed presenter builds field by field: plain
 * JSON.stringify instead of zod re-validating every row on the way out. For the long and hot lists
 * (samples, the work list) validation cost more than the query (docs/benchmarks.md); the presenters'
 * return types are the contract's, so the compiler checks what zod would have.
 */
export const presentedJson = () => (data: unknown) => JSON.stringify(data);

// The time format's home is server/time.ts; this re-export keeps code written against the old place
// compiling (import from '../../time' in new code).
export { isoDate, isoDateOrNull, utcTextAsIso } from '../time';
