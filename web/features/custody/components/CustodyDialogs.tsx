import {
  Alert,
  Checkbox,
  Group,
  Modal,
  NumberInput,
  Progress,
  SegmentedControl,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { z } from 'zod';
import {
  custodyMoveRequest,
  intakeRequest,
  MAX_CUSTODY_NOTE,
  returnRequest,
} from '../../../../common/contracts/custody';
import type { CustodyMove, ReturnMethod } from '../../../../common/domain/custody';
import { MAX_SAMPLE_PHOTOS } from '../../../../common/domain/uploads';
import { PHOTO_ACCEPT } from '../../../../common/domain/uploads';
import { DialogActions } from '../../../components/DialogActions';
import { FilePicker } from '../../../components/FilePicker';
import { errorMessage, serverFieldErrors } from '../../../lib/api';
import { toast } from '../../../lib/toast';
import { expertsQuery, locationsQuery, useIntake, useMoveItem, useReturnItem } from '../api';

// The custody dialogs of the sample page (docs/product/custody.md): receive the item at the intake
// desk, move it or hand it to an expert, send it back or hand it over in person.

type Errors = Record<string, string>;

/** The optional note every custody record can carry (kept in the item's history and the audit trail). */
function LabNoteField({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (note: string) => void;
  error?: string;
}) {
  return (
    <Textarea
      label="Note for the lab (optional)"
      name="note"
      autosize
      minRows={1}
      maxLength={MAX_CUSTODY_NOTE}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      error={error}
    />
  );
}

/** The first message per field of a contract's refusal. */
function issuesOf(error: z.ZodError): Errors {
  const out: Errors = {};
  for (const i of error.issues) {
    const key = String(i.path[0] ?? 'form');
    if (!(key in out)) out[key] = i.message;
  }
  return out;
}

/** A 400's field messages, with the intake's 'intake.' prefix taken off. */
function serverErrors(err: unknown): Errors {
  const out: Errors = {};
  for (const [k, v] of Object.entries(serverFieldErrors(err))) out[k.replace(/^intake\./, '')] = v;
  return out;
}

/** The active locations to choose from, as Select data. */
function useLocationOptions() {
  const q = useQuery(locationsQuery());
  const options = (q.data ?? [])
    .filter((l) => !l.retired)
    .map((l) => ({ value: String(l.id), label: l.name }));
  return { options, loading: q.isPending, failed: q.isError };
}

/** Now, as a datetime-local input writes it (local time, to the minute). */
function localNow(): string {
  const d = new Date();
  d.setSeconds(0, 0);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

export function IntakeDialog({
  sampleId,
  label,
  opened,
  onClose,
}: {
  sampleId: number;
  label: string;
  opened: boolean;
  onClose: () => void;
}) {
  const intake = useIntake(sampleId);
  const locations = useLocationOptions();
  const [receivedAt, setReceivedAt] = useState(localNow);
  const [itemCount, setItemCount] = useState<number | string>(1);
  const [packaging, setPackaging] = useState('');
  const [condition, setCondition] = useState('');
  const [locationId, setLocationId] = useState<string | null>(null);
  const [note, setNote] = useState('');
  const [photos, setPhotos] = useState<File[]>([]);
  const [progress, setProgress] = useState<number | null>(null);
  const [errors, setErrors] = useState<Errors>({});

  const submit = async () => {
    const body = {
      receivedAt: receivedAt ? new Date(receivedAt).toISOString() : '',
      itemCount: typeof itemCount === 'number' ? itemCount : Number.NaN,
      packaging,
      conditionOnArrival: condition,
      locationId: locationId ? Number(locationId) : null,
      note: note || null,
    };
    const parsed = intakeRequest.safeParse(body);
    if (!parsed.success) {
      setErrors(issuesOf(parsed.error));
      return;
    }
    setErrors({});
    try {
      setProgress(0);
      await intake.mutateAsync({ intake: body, photos, onProgress: setProgress });
      toast.success('Item received', `${label} is checked in.`);
      onClose();
    } catch (err) {
      setErrors(serverErrors(err));
      toast.error('Error', errorMessage(err, 'Failed to receive the item'));
    } finally {
      setProgress(null);
    }
  };

  return (
    <Modal opened={opened} onClose={onClose} title={`Receive item: ${label}`} centered size="lg">
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Stack gap="sm">
          <TextInput
            type="datetime-local"
            label="Received at"
            name="receivedAt"
            required
            value={receivedAt}
            onChange={(e) => setReceivedAt(e.currentTarget.value)}
            error={errors.receivedAt}
          />
          <NumberInput
            label="Number of pieces"
            name="itemCount"
            required
            min={1}
            max={999}
            allowDecimal={false}
            value={itemCount}
            onChange={setItemCount}
            error={errors.itemCount}
          />
          <TextInput
            label="Packaging"
            name="packaging"
            required
            placeholder="Double box, bubble wrap"
            value={packaging}
            onChange={(e) => setPackaging(e.currentTarget.value)}
            error={errors.packaging}
          />
          <Textarea
            label="Condition on arrival"
            name="conditionOnArrival"
            required
            description="The owner reads this in the arrival mail and on their sample page."
            autosize
            minRows={2}
            maxLength={MAX_CUSTODY_NOTE}
            value={condition}
            onChange={(e) => setCondition(e.currentTarget.value)}
            error={errors.conditionOnArrival}
          />
          <Select
            label="Location"
            name="locationId"
            placeholder={locations.loading ? 'Loading locations...' : 'Leave at the intake desk'}
            description="Where the item goes now. Without one it stays at the desk (Received)."
            data={locations.options}
            value={locationId}
            onChange={setLocationId}
            clearable
            error={errors.locationId ?? (locations.failed ? 'Failed to load the locations' : undefined)}
            comboboxProps={{ withinPortal: true }}
          />
          <LabNoteField value={note} onChange={setNote} error={errors.note} />
          <FilePicker
            name="photos"
            label="Arrival photos"
            hint={`Optional. At most ${MAX_SAMPLE_PHOTOS} photos, JPG, PNG or HEIC.`}
            accept={PHOTO_ACCEPT}
            buttonText="Choose photos"
            files={photos}
            error={errors.photos}
            onAdd={(added) => setPhotos((p) => [...p, ...added].slice(0, MAX_SAMPLE_PHOTOS))}
            onRemove={(i) => setPhotos((p) => p.filter((_, j) => j !== i))}
          />
          {progress !== null && photos.length > 0 ? (
            <Progress value={Math.round(progress * 100)} aria-label="Upload progress" />
          ) : null}
          <DialogActions onCancel={onClose} loading={intake.isPending}>
            Receive item
          </DialogActions>
        </Stack>
      </form>
    </Modal>
  );
}

const MOVE_TEXT: Record<CustodyMove, { title: string; button: string; done: string; locationLabel: string }> =
  {
    moved: { title: 'Move item', button: 'Move', done: 'Item moved', locationLabel: 'New location' },
    'to-expert': {
      title: 'Hand to an expert',
      button: 'Hand over',
      done: 'Item handed to an expert',
      locationLabel: 'Where the expert works (optional)',
    },
    'to-storage': {
      title: 'Put in storage',
      button: 'Put in storage',
      done: 'Item put in storage',
      locationLabel: 'Location',
    },
  };

/** Active staff members and admins, as Select data. */
function useExpertOptions(enabled: boolean) {
  const q = useQuery({ ...expertsQuery(), enabled });
  return {
    options: (q.data ?? []).map((e) => ({ value: String(e.id), label: e.name })),
    loading: q.isPending,
  };
}

export function MoveDialog({
  sampleId,
  label,
  move,
  defaultExpertId,
  onClose,
}: {
  sampleId: number;
  label: string;
  move: CustodyMove | null;
  /** The hand-over's preselected expert: the sample's assigned one. */
  defaultExpertId: number | null;
  onClose: () => void;
}) {
  const moveItem = useMoveItem(sampleId);
  const locations = useLocationOptions();
  const experts = useExpertOptions(move === 'to-expert');
  const [locationId, setLocationId] = useState<string | null>(null);
  const [expertId, setExpertId] = useState<string | null>(null);
  const chosenExpert = expertId ?? (defaultExpertId !== null ? String(defaultExpertId) : null);
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const text = move ? MOVE_TEXT[move] : null;
  const close = () => {
    setLocationId(null);
    setExpertId(null);
    setNote('');
    setErrors({});
    onClose();
  };

  const submit = async () => {
    if (!move) return;
    const body = {
      event: move,
      locationId: locationId ? Number(locationId) : null,
      ...(move === 'to-expert' && chosenExpert ? { expertId: Number(chosenExpert) } : {}),
      note: note || null,
    };
    const parsed = custodyMoveRequest.safeParse(body);
    if (!parsed.success) {
      setErrors(issuesOf(parsed.error));
      return;
    }
    try {
      await moveItem.mutateAsync(body);
      toast.success(text?.done ?? 'Saved', label);
      close();
    } catch (err) {
      setErrors(serverErrors(err));
      toast.error('Error', errorMessage(err, 'Failed to move the item'));
    }
  };

  return (
    <Modal opened={move !== null} onClose={close} title={text ? `${text.title}: ${label}` : ''} centered>
      {text ? (
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <Stack gap="sm">
            {move === 'to-expert' ? (
              <Select
                label="Expert"
                name="expertId"
                description={
                  defaultExpertId === null ? 'Nobody chosen: you take the item yourself' : undefined
                }
                placeholder={experts.loading ? 'Loading the experts...' : 'Choose an expert'}
                data={experts.options}
                value={chosenExpert}
                onChange={setExpertId}
                searchable
                error={errors.expertId}
                comboboxProps={{ withinPortal: true }}
              />
            ) : null}
            <Select
              label={text.locationLabel}
              name="locationId"
              required={move !== 'to-expert'}
              placeholder={locations.loading ? 'Loading locations...' : 'Choose a location'}
              data={locations.options}
              value={locationId}
              onChange={setLocationId}
              clearable
              error={errors.locationId}
              comboboxProps={{ withinPortal: true }}
            />
            <LabNoteField value={note} onChange={setNote} error={errors.note} />
            <DialogActions onCancel={close} loading={moveItem.isPending}>
              {text.button}
            </DialogActions>
          </Stack>
        </form>
      ) : null}
    </Modal>
  );
}

export function ReturnDialog({
  sampleId,
  label,
  declared,
  opened,
  onClose,
}: {
  sampleId: number;
  label: string;
  /** The owner's declared value, offered as the insured value. */
  declared: { value: number; currency: string } | null;
  opened: boolean;
  onClose: () => void;
}) {
  const returnItem = useReturnItem(sampleId);
  const [method, setMethod] = useState<ReturnMethod>('courier');
  const [carrier, setCarrier] = useState('');
  const [trackingNumber, setTrackingNumber] = useState('');
  const [insuredValue, setInsuredValue] = useState(declared ? String(declared.value) : '');
  const [currency, setCurrency] = useState(declared?.currency ?? '');
  const [collectedBy, setCollectedBy] = useState('');
  const [idChecked, setIdChecked] = useState(false);
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Errors>({});

  const submit = async () => {
    const body =
      method === 'courier'
        ? {
            method,
            carrier,
            trackingNumber,
            insuredValue: insuredValue.trim() || null,
            currency: insuredValue.trim() ? currency.trim().toUpperCase() || null : null,
            note: note || null,
          }
        : { method, collectedBy, idChecked, note: note || null };
    const parsed = returnRequest.safeParse(body);
    if (!parsed.success) {
      setErrors(issuesOf(parsed.error));
      return;
    }
    setErrors({});
    try {
      await returnItem.mutateAsync(body);
      toast.success(
        method === 'courier' ? 'Item returned' : 'Item collected',
        `${label}: the owner is mailed.`,
      );
      onClose();
    } catch (err) {
      setErrors(serverErrors(err));
      toast.error('Error', errorMessage(err, 'Failed to return the item'));
    }
  };

  return (
    <Modal opened={opened} onClose={onClose} title={`Return item: ${label}`} centered>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Stack gap="sm">
          <div>
            <Text size="sm" fw={500} id="return-method-label" mb={4}>
              How it goes back
            </Text>
            <SegmentedControl
              aria-labelledby="return-method-label"
              name="method"
              value={method}
              onChange={(v) => {
                setMethod(v as ReturnMethod);
                setErrors({});
              }}
              data={[
                { value: 'courier', label: 'By courier' },
                { value: 'collected', label: 'Collected in person' },
              ]}
              fullWidth
            />
          </div>
          {method === 'courier' ? (
            <>
              <TextInput
                label="Carrier"
                name="carrier"
                required
                placeholder="DHL Express"
                value={carrier}
                onChange={(e) => setCarrier(e.currentTarget.value)}
                error={errors.carrier}
              />
              <TextInput
                label="Tracking number"
                name="trackingNumber"
                required
                value={trackingNumber}
                onChange={(e) => setTrackingNumber(e.currentTarget.value)}
                error={errors.trackingNumber}
              />
              <Group grow align="flex-start">
                <TextInput
                  label="Insured value (optional)"
                  name="insuredValue"
                  inputMode="decimal"
                  value={insuredValue}
                  onChange={(e) => setInsuredValue(e.currentTarget.value)}
                  error={errors.insuredValue}
                />
                <TextInput
                  label="Currency"
                  name="currency"
                  placeholder="EUR"
                  maxLength={3}
                  value={currency}
                  onChange={(e) => setCurrency(e.currentTarget.value)}
                  error={errors.currency}
                />
              </Group>
            </>
          ) : (
            <>
              <TextInput
                label="Collected by"
                name="collectedBy"
                required
                description="The name on the identity document you checked."
                value={collectedBy}
                onChange={(e) => setCollectedBy(e.currentTarget.value)}
                error={errors.collectedBy}
              />
              <Checkbox
                label="I checked their identity document"
                name="idChecked"
                checked={idChecked}
                onChange={(e) => setIdChecked(e.currentTarget.checked)}
                error={errors.idChecked}
              />
            </>
          )}
          <LabNoteField value={note} onChange={setNote} error={errors.note} />
          {errors.form ? <Alert color="red">{errors.form}</Alert> : null}
          <DialogActions onCancel={onClose} loading={returnItem.isPending}>
            {method === 'courier' ? 'Return by courier' : 'Record collection'}
          </DialogActions>
        </Stack>
      </form>
    </Modal>
  );
}
