import { type FormErrors, schemaResolver, type UseFormInput } from '@mantine/form';
import type { z } from 'zod';
import { afterPointerRelease } from './pointer-release';

/** A form's schema from common/contracts, loaded when the form first needs it (lazyContract). */
export type LazyContract<Schema extends z.ZodType = z.ZodType> = {
  /** The check: synchronous once the schema is there, a promise the first time. */
  validate: (values: unknown) => FormErrors | Promise<FormErrors>;
  /** Starts loading the schema (a field got the focus), so the first check need not wait. */
  preload: () => void;
  /** The schema's parse (its trimmed, normalised output), for a submit the form has checked. */
  parse: (values: unknown) => Promise<z.output<Schema>>;
};

/**
 * The public pages' forms check with the same zod schema as the server, but zod is not part of the
 * page's first JavaScript (docs/benchmarks.md, "Public pages"): the schema's module is imported once
 * the form has rendered or a field gets the focus, and a submit made before it has arrived waits for
 * it (usePublicForm, web/lib/public-form.ts; a blur check that would wait is left out there). If the module cannot be loaded, the form is sent
 * unchecked and the server, holding the same schema, answers with the same messages per field.
 */
export function lazyContract<Schema extends z.ZodType>(load: () => Promise<Schema>): LazyContract<Schema> {
  let check: ((values: unknown) => FormErrors) | null = null;
  let loading: Promise<Schema | null> | null = null;
  const start = () =>
    (loading ??= load().then(
      (schema) => {
        check = schemaResolver(schema, { sync: true });
        return schema;
      },
      () => {
        loading = null;
        return null;
      },
    ));
  return {
    validate: (values) => check?.(values) ?? start().then(() => check?.(values) ?? {}),
    preload: () => void start(),
    parse: async (values) => ((await start()) ?? (await load())).parse(values),
  };
}

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
