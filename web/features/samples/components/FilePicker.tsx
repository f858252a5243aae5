import { ActionIcon, Box, Group, Image, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconFile, IconUpload, IconX } from '@tabler/icons-react';
import { type DragEvent, type ReactNode, useEffect, useId, useMemo, useState } from 'react';
import { formatKb } from '../../../lib/format';

/**
 * A file picker with a real, labelled `<input type="file" name=…>` (keyboard and screen readers),
 * a drop area for drag and drop, thumbnails for images and a remove button per file.
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
  const previews = useMemo(
    () => files.map((f) => (f.type.startsWith('image/') ? URL.createObjectURL(f) : null)),
    [files],
  );
  useEffect(
    () => () => {
      for (const url of previews) if (url) URL.revokeObjectURL(url);
    },
    [previews],
  );

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
      {files.length > 0 && (
        <SimpleGrid cols={{ base: 2, sm: 3, md: 5 }} spacing="sm">
          {files.map((file, i) => (
            <Paper
              key={`${file.name}-${file.size}-${file.lastModified}`}
              withBorder
              p={6}
              radius="sm"
              pos="relative"
            >
              {previews[i] ? (
                <Image src={previews[i]} alt={file.name} h={80} fit="cover" radius="sm" />
              ) : (
                <Box h={80} style={{ display: 'grid', placeItems: 'center' }}>
                  <IconFile size={32} aria-hidden="true" />
                </Box>
              )}
              <Group gap={4} wrap="nowrap" mt={4} justify="space-between">
                <Box style={{ minWidth: 0 }}>
                  <Text size="xs" truncate="end" title={file.name}>
                    {file.name}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {formatKb(file.size)}
                  </Text>
                </Box>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  size="sm"
                  aria-label={`Remove ${file.name}`}
                  onClick={() => onRemove(i)}
                >
                  <IconX size={14} aria-hidden="true" />
                </ActionIcon>
              </Group>
            </Paper>
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}
