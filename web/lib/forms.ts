import type { UseFormInput } from '@mantine/form';
import { afterPointerRelease } from './pointer-release';

/**
 * The useForm options for checking a field when it loses focus. The check waits for a pointer press
 * in progress to be released (web/lib/pointer-release.ts): the error it shows pushes what is below
 * down, and a press on the submit button would otherwise lose its click
 * (docs/decisions/0012a-web-conventions.md).
 */
export function validateOnBlurAfterRelease<Values>(): Pick<
  UseFormInput<Values>,
  'validateInputOnBlur' | 'enhanceGetInputProps'
> {
  return {
    validateInputOnBlur: false,
    enhanceGetInputProps: ({ field, form, options }) =>
      options.withFocus ? { onBlur: () => afterPointerRelease(() => form.validateField(field)) } : {},
  };
}

/**
 * Focuses `el` and makes sure it (with its label) is in view below the sticky header: the elements'
 * `scroll-margin-top` (web/app/global.css) keeps the header's height free when scrolling to it.
 */
export function focusInView(el: HTMLElement | null | undefined) {
  if (!el) return;
  el.focus({ preventScroll: true });
  const box = el.getBoundingClientRect();
  const top = Number.parseFloat(getComputedStyle(el).scrollMarginTop) || 0;
  if (box.top < top || box.bottom > window.innerHeight) el.scrollIntoView({ block: 'start' });
}

/** Moves the focus to the first field named in `errors` (inputs carry the field's name). */
export function focusFirstError(errors: Record<string, unknown>) {
  const first = Object.keys(errors)[0];
  if (first) focusInView(document.querySelector<HTMLElement>(`form [name="${first}"]`));
}
