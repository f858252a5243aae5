// A choice offered in a form: the value stored and sent, the label people read. Every list of
// choices (sample intake, valuation reports) is shown by its label through optionLabel.

export type Option = { value: string; label: string };

/** The label of `value` in `options`: nothing for no value, the value itself when it is not listed. */
export function optionLabel(options: readonly Option[], value: string | null | undefined): string {
  if (!value) return '';
  return options.find((o) => o.value === value)?.label ?? value;
}
