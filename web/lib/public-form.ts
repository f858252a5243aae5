import type { GetInputPropsReturnType } from '@mantine/form';
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import type { LazyContract } from './forms';
import { afterPointerRelease } from './pointer-release';

type Errors = Record<string, ReactNode>;
type Values = Record<string, string>;

const sameValues = (a: Values, b: Values) =>
  Object.keys({ ...a, ...b }).every((key) => (a[key] ?? '') === (b[key] ?? ''));

/** What an input's change handler receives: an event from a text field or select, or a value. */
const changedValue = (input: unknown): string => {
  if (input && typeof input === 'object' && 'currentTarget' in input) {
    const target = (input as { currentTarget: unknown }).currentTarget;
    if (
      target instanceof HTMLInputElement ||
      target instanceof HTMLTextAreaElement ||
      target instanceof HTMLSelectElement
    )
      return target.value;
  }
  return typeof input === 'string' ? input : '';
};

/**
 * The public pages' forms (contact, sign-in, sign-up, password reset): text fields only, checked
 * with a contract's zod schema loaded on first use (lazyContract). It does, for these forms, what
 * the logged-in screens get from `@mantine/form`, without its 6 KB gzip on a visitor's page
 * (docs/benchmarks.md, "Public pages"): a field is checked when it loses the focus, after a pointer
 * press is released (docs/decisions/0012a-web-conventions.md); editing a field clears its error; a
 * submit checks every field, shows the errors and hands them to `onInvalid`, or calls the handler
 * (`submitting` while it runs).
 */
export function usePublicForm<V extends Values>({
  initialValues,
  contract,
  onValuesChange,
}: {
  initialValues: V;
  contract: LazyContract;
  onValuesChange?: (values: V) => void;
}) {
  const [values, setValuesState] = useState<V>(initialValues);
  const valuesRef = useRef(values);
  const initialRef = useRef(initialValues);
  const [errors, setErrorsState] = useState<Errors>({});
  const [submitting, setSubmitting] = useState(false);
  // The schema starts loading with the page, after its first paint, so that the first blur finds it.
  useEffect(() => contract.preload(), [contract]);

  const setValues = (next: V) => {
    valuesRef.current = next;
    setValuesState(next);
    setErrorsState({});
    onValuesChange?.(next);
  };
  const setFieldValue = (field: keyof V & string, value: string) => {
    const next = { ...valuesRef.current, [field]: value };
    valuesRef.current = next;
    setValuesState(next);
    setErrorsState((current) => {
      if (!(field in current)) return current;
      const { [field]: _cleared, ...rest } = current;
      return rest;
    });
    onValuesChange?.(next);
  };
  /** The schema's errors for the current values, one message per field (the first). */
  const check = async (): Promise<Errors> => {
    const result = contract.validate(valuesRef.current);
    return Object.fromEntries(Object.entries(await result).filter(([, message]) => Boolean(message)));
  };
  const validateField = (field: string) => {
    const result = contract.validate(valuesRef.current);
    // A check that would wait for the schema is left out: its error would appear late, move what is
    // below it and make a press on the submit button miss. The submit checks every field anyway.
    if (result instanceof Promise) return;
    const found = Object.fromEntries(Object.entries(result).filter(([, message]) => Boolean(message)));
    setErrorsState((current) => {
      const { [field]: _old, ...rest } = current;
      return found[field] ? { ...rest, [field]: found[field] } : rest;
    });
  };

  return {
    values,
    submitting,
    getInputProps: (field: keyof V & string): GetInputPropsReturnType => ({
      value: values[field],
      onChange: (input: unknown) => setFieldValue(field, changedValue(input)),
      error: errors[field],
      onFocus: () => contract.preload(),
      onBlur: () => afterPointerRelease(() => validateField(field)),
    }),
    setErrors: (next: Record<string, string>) => setErrorsState(next),
    setValues,
    setInitialValues: (next: V) => {
      initialRef.current = next;
    },
    isDirty: () => !sameValues(valuesRef.current, initialRef.current),
    reset: () => setValues(initialRef.current),
    onSubmit:
      (handler: (values: V) => unknown, onInvalid?: (errors: Errors) => void) =>
      (event?: FormEvent<HTMLFormElement>) => {
        event?.preventDefault();
        setSubmitting(true);
        void check()
          .then(async (found) => {
            setErrorsState(found);
            if (Object.keys(found).length > 0) onInvalid?.(found);
            else await handler(valuesRef.current);
          })
          .finally(() => setSubmitting(false));
      },
  };
}
