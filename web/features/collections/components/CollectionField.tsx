import { NativeSelect } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { CollectionFieldProps } from '../../../components/slots';
import { useSession } from '../../../lib/session';
import { collectionsQuery } from '../api';

/** The submit form's optional "Add to collection…" selector: the customer's own collections, or none. */
export function CollectionField({ value, onChange }: CollectionFieldProps) {
  const { token } = useSession();
  const query = useQuery(collectionsQuery(token));
  const collections = query.data ?? [];
  // A collection named in the address (from a collection page) shows even before the list loads.
  const known = !value || collections.some((c) => String(c.id) === value);
  return (
    <NativeSelect
      label="Add to collection…"
      name="collectionId"
      description={
        query.isError
          ? 'Your collections could not be loaded; the item can be added to one later.'
          : 'Optional: group this item with others, such as the pieces of an estate.'
      }
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      data={[
        { value: '', label: 'No collection' },
        ...(known ? [] : [{ value, label: `Collection ${value}` }]),
        ...collections.map((c) => ({ value: String(c.id), label: c.name })),
      ]}
    />
  );
}
