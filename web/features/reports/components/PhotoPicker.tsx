import { ActionIcon, Box, Group, Stack, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconCheck, IconGripVertical, IconX } from '@tabler/icons-react';
import { type DragEvent, type KeyboardEvent, useEffect, useState } from 'react';
import { VALUATION_MESSAGES } from '../../../../common/contracts/reports';
import type { SampleFile } from '../../../../common/contracts/samples';
import { MAX_REPORT_PHOTOS } from '../../../../common/domain/valuation';
import { ProtectedPhoto } from '../../../components/ProtectedPhoto';
import { keyedMove, movedAnnouncement, moveItem, PHOTO_ORDER_KEYS } from '../photo-order';

// Choosing the report's photos (docs/product/valuation-report.md): a click on a thumbnail adds or
// removes it; the chosen ones are ordered by dragging, with Move up / Move down, or with the arrow
// keys on a focused row, and every move is announced to screen readers.

/** Where the focus goes back to after a move: the moved row itself, or one of its buttons. */
type Refocus = { id: number; target: 'row' | 'up' | 'down' };

export function PhotoPicker({
  photos,
  chosen,
  onChange,
  error,
}: {
  photos: SampleFile[];
  chosen: number[];
  onChange: (ids: number[]) => void;
  error?: string;
}) {
  const [announcement, setAnnouncement] = useState('');
  const [refusal, setRefusal] = useState<string | null>(null);
  const [dragFrom, setDragFrom] = useState<number | null>(null);
  // A moved row's node is re-inserted, which drops the focus: put it back on the same row or button
  // (a button that became disabled at an end hands it to its twin).
  const [refocus, setRefocus] = useState<Refocus | null>(null);
  useEffect(() => {
    if (!refocus) return;
    const { id, target } = refocus;
    if (target === 'row') {
      document.querySelector<HTMLElement>(`[data-photo-row="${id}"]`)?.focus();
    } else {
      const button = (dir: string) =>
        document.querySelector<HTMLButtonElement>(`[data-move-id="${id}"][data-move="${dir}"]`);
      const same = button(target);
      (same && !same.disabled ? same : button(target === 'up' ? 'down' : 'up'))?.focus();
    }
    setRefocus(null);
  }, [refocus, chosen]);
  const byId = new Map(photos.map((p) => [p.id, p]));
  const picked = chosen.map((id) => byId.get(id)).filter((p): p is SampleFile => Boolean(p));
  const message = refusal ?? error;

  const toggle = (p: SampleFile) => {
    if (chosen.includes(p.id)) {
      setRefusal(null);
      onChange(chosen.filter((id) => id !== p.id));
      setAnnouncement(`${p.originalName} removed from the report.`);
      return;
    }
    if (chosen.length >= MAX_REPORT_PHOTOS) {
      setRefusal(VALUATION_MESSAGES.tooManyPhotos);
      setAnnouncement(VALUATION_MESSAGES.tooManyPhotos);
      return;
    }
    setRefusal(null);
    onChange([...chosen, p.id]);
    setAnnouncement(`${p.originalName} added as photo ${chosen.length + 1}.`);
  };

  const move = (from: number, to: number) => {
    if (to < 0 || to >= chosen.length || from === to) return;
    onChange(moveItem(chosen, from, to));
    const name = byId.get(chosen[from] ?? -1)?.originalName ?? 'Photo';
    setAnnouncement(movedAnnouncement(name, to, chosen.length));
  };

  const onRowKey = (e: KeyboardEvent, id: number, index: number) => {
    if (e.target !== e.currentTarget) return; // a key on one of the row's buttons is the button's
    const to = keyedMove(e, index, chosen.length);
    if (to === null) return;
    e.preventDefault(); // no scrolling of the dialog
    move(index, to);
    setRefocus({ id, target: 'row' });
  };

  const onDrop = (e: DragEvent, to: number) => {
    e.preventDefault();
    const from = dragFrom ?? Number(e.dataTransfer.getData('text/plain'));
    setDragFrom(null);
    if (Number.isInteger(from)) move(from, to);
  };

  if (photos.length === 0)
    return (
      <Text size="sm" c="dimmed">
        This sample has no photos.
      </Text>
    );

  return (
    <Stack gap="sm">
      <Text size="sm" c="gray.7" id="report-photos-hint">
        Click a photo to add it to the report or take it off. To set the order, drag the chosen ones, use Move
        up and Move down, or focus a chosen photo: {PHOTO_ORDER_KEYS}. A report shows at most six photos.
      </Text>
      <Group gap="xs" role="group" aria-label="Sample photos" aria-describedby="report-photos-hint">
        {photos.map((p) => {
          const on = chosen.includes(p.id);
          return (
            // The position badge sits beside the button, not in it: the button's name is its label.
            <Box key={p.id} pos="relative">
              <UnstyledButton
                name="photoIds"
                aria-pressed={on}
                aria-label={`${on ? 'Remove' : 'Add'} ${p.originalName}`}
                onClick={() => toggle(p)}
                display="block"
                style={{
                  borderRadius: 'var(--mantine-radius-sm)',
                  outline: on ? '3px solid var(--mantine-color-blue-6)' : undefined,
                  outlineOffset: 2,
                }}
              >
                <ProtectedPhoto
                  url={p.thumbnailUrl}
                  processing={p.processing}
                  alt={p.originalName}
                  width={88}
                  height={88}
                />
              </UnstyledButton>
              {on ? (
                <Group
                  gap={2}
                  pos="absolute"
                  top={4}
                  left={4}
                  bg="blue.7"
                  c="white"
                  px={6}
                  aria-hidden="true"
                  style={{ borderRadius: 'var(--mantine-radius-xl)', pointerEvents: 'none' }}
                >
                  <IconCheck size={12} />
                  <Text component="span" fw={700} size="xs">
                    {chosen.indexOf(p.id) + 1}
                  </Text>
                </Group>
              ) : null}
            </Box>
          );
        })}
      </Group>
      {message ? (
        <Text c="red" size="sm" role="alert">
          {message}
        </Text>
      ) : null}
      {picked.length ? (
        <Stack
          component="ol"
          gap={6}
          p={0}
          m={0}
          aria-label="Photos on the report, in order"
          style={{ listStyle: 'none' }}
        >
          {picked.map((p, i) => (
            <Group
              component="li"
              key={p.id}
              gap="xs"
              wrap="nowrap"
              p={6}
              draggable
              tabIndex={0}
              aria-label={`Photo ${i + 1}: ${p.originalName}`}
              aria-description={`${PHOTO_ORDER_KEYS}.`}
              data-photo-row={p.id}
              data-testid="report-photo"
              onKeyDown={(e: KeyboardEvent) => onRowKey(e, p.id, i)}
              onDragStart={(e: DragEvent) => {
                setDragFrom(i);
                e.dataTransfer.effectAllowed = 'move';
                e.dataTransfer.setData('text/plain', String(i));
              }}
              onDragEnd={() => setDragFrom(null)}
              onDragOver={(e: DragEvent) => e.preventDefault()}
              onDrop={(e: DragEvent) => onDrop(e, i)}
              style={{
                border: '1px solid var(--mantine-color-gray-3)',
                borderRadius: 'var(--mantine-radius-sm)',
                background: dragFrom === i ? 'var(--mantine-color-blue-0)' : undefined,
                cursor: 'grab',
              }}
            >
              <IconGripVertical size={16} aria-hidden="true" style={{ flexShrink: 0 }} />
              <ProtectedPhoto
                url={p.thumbnailUrl}
                processing={p.processing}
                alt=""
                width={48}
                height={48}
                style={{ flexShrink: 0 }}
              />
              <Text size="sm" style={{ flex: 1, minWidth: 0 }} truncate="end" title={p.originalName}>
                Photo {i + 1}: {p.originalName}
              </Text>
              <ActionIcon
                variant="subtle"
                aria-label={`Move ${p.originalName} up`}
                disabled={i === 0}
                data-move-id={p.id}
                data-move="up"
                onClick={() => {
                  move(i, i - 1);
                  setRefocus({ id: p.id, target: 'up' });
                }}
              >
                <IconArrowUp size={16} aria-hidden="true" />
              </ActionIcon>
              <ActionIcon
                variant="subtle"
                aria-label={`Move ${p.originalName} down`}
                disabled={i === picked.length - 1}
                data-move-id={p.id}
                data-move="down"
                onClick={() => {
                  move(i, i + 1);
                  setRefocus({ id: p.id, target: 'down' });
                }}
              >
                <IconArrowDown size={16} aria-hidden="true" />
              </ActionIcon>
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={`Take ${p.originalName} off the report`}
                onClick={() => toggle(p)}
              >
                <IconX size={16} aria-hidden="true" />
              </ActionIcon>
            </Group>
          ))}
        </Stack>
      ) : null}
      <VisuallyHidden aria-live="polite" role="status">
        {announcement}
      </VisuallyHidden>
    </Stack>
  );
}
