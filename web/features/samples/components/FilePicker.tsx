import { Paper, Stack, Text } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { type DragEvent, type ReactNode, useId, useState } from 'react';
import { PhotoPreviews } from './PhotoPreviews';

/**
 * A file picker with a real, labelled `<input type="file" name=…>` (keyboard and screen readers),
 * a drop area for drag and drop, and previews of the chosen files with a remove button each (PhotoPreviews).
 */
export function FilePicker({
  name,
  label,
  hint,
  accept,
  files,
  onAdd,
  onRemove,
  error,
}: {
  name: string;
  label: string;
  hint: string;
  accept: string;
  files: File[];
  onAdd: (files: File[]) => void;
  onRemove: (index: number) => void;
  error?: ReactNode;
}) {
  const id = useId();
  const [dragging, setDragging] = useState(false);

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    if (e.dataTransfer.files.length) onAdd(Array.from(e.dataTransfer.files));
  };

  return (
    <Stack gap="xs">
      <Paper
        withBorder
        p="md"
        radius="md"
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        style={{
          borderStyle: 'dashed',
          borderColor: error
            ? 'var(--mantine-color-red-7)'
            : dragging
              ? 'var(--mantine-color-blue-6)'
              : undefined,
          background: dragging ? 'var(--mantine-color-blue-0)' : undefined,
        }}
        data-testid={`${name}-dropzone`}
      >
        <Stack gap={6} align="center">
          <IconUpload size={28} aria-hidden="true" />
          <Text component="label" htmlFor={id} fw={600}>
            {label}
          </Text>
          <Text size="sm" c="dimmed" ta="center" id={`${id}-hint`}>
            {hint}
          </Text>
          <input
            id={id}
            name={name}
            type="file"
            multiple
            accept={accept}
            aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
            aria-invalid={error ? true : undefined}
            style={{ maxWidth: '100%' }}
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
      <PhotoPreviews files={files} onRemove={onRemove} />
    </Stack>
  );
}
