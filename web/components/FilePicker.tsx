import { Button, Paper, Stack, Text } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { type DragEvent, type ReactNode, useId, useRef, useState } from 'react';
import classes from './FilePicker.module.css';
import { FilePreviews } from './FilePreviews';

/**
 * The one file picker of the web app (sample photos and documents, profile picture and signature,
 * the lab's logo): a drop zone with a 'Choose …' button and previews of the chosen files, each with
 * a remove button (FilePreviews).
 *
 * The real `<input type="file" name=…>` is kept, labelled and described, but visually hidden, so
 * the browser's own "Choose Files / No file chosen" control is never drawn. It is the element that
 * takes the keyboard focus (Enter or Space opens the chooser); the zone shows that focus
 * (docs/decisions/0012a-web-conventions.md). A click anywhere on the zone opens the chooser too.
 */
export function FilePicker({
  name,
  label,
  hint,
  accept,
  buttonText,
  multiple = true,
  files,
  onAdd,
  onRemove,
  error,
  current,
  isRefused,
}: {
  name: string;
  label: string;
  hint: string;
  accept: string;
  /** The visible button's words, e.g. 'Choose photos'. */
  buttonText: string;
  multiple?: boolean;
  files: File[];
  onAdd: (files: File[]) => void;
  onRemove: (index: number) => void;
  error?: ReactNode;
  /** What is saved now (e.g. the current picture), shown while no file is chosen. */
  current?: ReactNode;
  /** A chosen file that cannot be sent (too large): marked in its preview until it is removed. */
  isRefused?: (file: File) => boolean;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    const dropped = Array.from(e.dataTransfer.files);
    if (dropped.length) onAdd(multiple ? dropped : dropped.slice(0, 1));
  };

  return (
    <Stack gap="xs">
      <Paper
        withBorder
        p="md"
        radius="md"
        className={classes.zone}
        data-dragging={dragging || undefined}
        data-error={error ? true : undefined}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        onClick={(e) => {
          if (e.target !== input.current) input.current?.click();
        }}
        data-testid={`${name}-dropzone`}
      >
        <Stack gap={6} align="center">
          <IconUpload size={28} aria-hidden="true" />
          <Text component="label" htmlFor={id} fw={600} onClick={(e) => e.preventDefault()}>
            {label}
          </Text>
          <Text size="sm" c="dimmed" ta="center" id={`${id}-hint`}>
            {hint}
          </Text>
          {/* The input is the control; this button only draws it (a click bubbles to the zone). */}
          <Button component="span" variant="light" size="xs" aria-hidden="true" tabIndex={-1}>
            {buttonText}
          </Button>
          <input
            ref={input}
            id={id}
            name={name}
            type="file"
            multiple={multiple}
            accept={accept}
            className={classes.input}
            aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
            aria-invalid={error ? true : undefined}
            onChange={(e) => {
              const list = Array.from(e.currentTarget.files ?? []);
              if (list.length) onAdd(list);
              e.currentTarget.value = '';
            }}
          />
        </Stack>
      </Paper>
      {error && (
        <Text size="sm" c="red.8" id={`${id}-error`} role="alert">
          {error}
        </Text>
      )}
      {files.length === 0 ? (
        current
      ) : (
        <FilePreviews files={files} onRemove={onRemove} isRefused={isRefused} />
      )}
    </Stack>
  );
}
