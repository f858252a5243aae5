// Kept apart from the scoring (./password-score.ts) so that the server process builds the word list
// without loading zxcvbn's dictionaries: only the worker thread scores (./password-strength.ts).

/** The words of a person (and of the lab) a password must not be built from. */
export function personalWords(
  person: { email?: string | null; firstName?: string | null; lastName?: string | null },
  labName: string,
): string[] {
  const email = person.email?.trim().toLowerCase() ?? '';
  const local = email.split('@')[0] ?? '';
  return [
    person.firstName,
    person.lastName,
    email,
    local,
    ...local.split(/[._+-]+/),
    labName,
    ...labName.split(/\s+/),
  ]
    .map((w) => (w ?? '').trim().toLowerCase())
    .filter((w) => w.length >= 3);
}
