import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as en from '@zxcvbn-ts/language-en';

// New passwords are checked against the common-password list of zxcvbn-ts (about 49,000 passwords,
// plus its English words and common keyboard patterns) and against the person's own words: their
// names, their e-mail address and its local part, and the lab's name (docs/product/security.md).
// zxcvbn scores the guesses an attacker would need; a score under MIN_PASSWORD_SCORE (fewer than
// about a million guesses: "password1", "Heritage2024", "jsmith123") is refused.

/** zxcvbn's 0–4 scale: 2 means at least about 10^6 guesses even for an attacker who knows the list. */
export const MIN_PASSWORD_SCORE = 2;
/**
 * Only this many characters are scored: a longer password is not a common one, and zxcvbn's cost
 * grows quickly with the length of patterned input. Its look-alike ("l33t") substitutions are capped
 * for the same reason: 'a1b2…' at 64 characters took seconds with the library's defaults.
 */
const SCORED_LENGTH = 40;
const MAX_L33T_SUBSTITUTIONS = 8;

let checker: ZxcvbnFactory | undefined;
/** The dictionaries are built once per process, on first use (about a second). */
function zxcvbn(): ZxcvbnFactory {
  checker ??= new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...en.dictionary },
    graphs: common.adjacencyGraphs,
    translations: en.translations,
    maxLength: SCORED_LENGTH,
    l33tMaxSubstitutions: MAX_L33T_SUBSTITUTIONS,
  });
  return checker;
}

/** Whether the password is common, or an obvious variant of the list or of the person's words. */
export function isGuessablePassword(password: string, words: string[]): boolean {
  return zxcvbn().check(password.slice(0, SCORED_LENGTH), words).score < MIN_PASSWORD_SCORE;
}
