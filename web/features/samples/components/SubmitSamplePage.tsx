import {
  Alert,
  Button,
  Checkbox,
  Container,
  Group,
  NativeSelect,
  Paper,
  Progress,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { SAMPLE_SUBMISSION_MESSAGES, sampleSubmissionFields } from '../../../../common/contracts/samples';
import {
  CATEGORIES,
  COUNTRIES,
  displaySampleId,
  PURPOSES,
  RELATIONSHIPS,
  SERVICES,
  VALUE_RANGES,
} from '../../../../common/domain/samples';
import {
  DOCUMENT_ACCEPT,
  MAX_SAMPLE_DOCUMENTS,
  MAX_SAMPLE_FILE_BYTES,
  MAX_SAMPLE_PHOTOS,
  PHOTO_ACCEPT,
} from '../../../../common/domain/uploads';
import { errorMessage } from '../../../lib/api';
import { formatDateTime } from '../../../lib/format';
import { useSession } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { usePageTitle } from '../../../lib/use-page-title';
import { sampleKeys, submitSample } from '../api';
import {
  discardDraft,
  draftKey,
  EMPTY_SAMPLE_FORM,
  loadDraft,
  type SampleDraft,
  type SampleFormValues,
  saveDraft,
} from '../draft';
import { FilePicker } from './FilePicker';

const SUBMIT_FAILED = 'Failed to submit sample. Please try again.';
const DRAFT_FAILED = 'Failed to save draft. Please try again.';
const MAX_MB = MAX_SAMPLE_FILE_BYTES / (1024 * 1024);

type Errors = Partial<Record<keyof SampleFormValues | 'photos' | 'documents' | 'services', string>>;

const options = (list: readonly { value: string; label: string }[], placeholder: string) => [
  { value: '', label: placeholder },
  ...list,
];

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = `section-${title.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby={id}>
      <Title order={2} size="h3" id={id} mb="md">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

/** Keeps at most `max` files of at most 5 MB; returns the kept list and a message for what was refused. */
function addFiles(current: File[], added: File[], max: number): { files: File[]; error: string | null } {
  const tooBig = added.filter((f) => f.size > MAX_SAMPLE_FILE_BYTES);
  const fitting = added.filter((f) => f.size <= MAX_SAMPLE_FILE_BYTES);
  const room = Math.max(0, max - current.length);
  const files = [...current, ...fitting.slice(0, room)];
  if (tooBig.length)
    return {
      files,
      error: `Each file must be ${MAX_MB}MB or smaller: ${tooBig.map((f) => f.name).join(', ')}`,
    };
  if (fitting.length > room) return { files, error: `You can upload at most ${max} files.` };
  return { files, error: null };
}

export function SubmitSamplePage() {
  usePageTitle('Submit Sample', 'Submit an item to the laboratory for valuation.');
  const { user } = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const key = draftKey(user?.id);
  const initialDraft = useMemo(() => loadDraft(key), [key]);
  const [draft, setDraft] = useState<SampleDraft | null>(initialDraft);
  const [values, setValues] = useState<SampleFormValues>(
    () =>
      initialDraft?.values ?? {
        ...EMPTY_SAMPLE_FORM,
        submitterName: [user?.firstName, user?.lastName].filter(Boolean).join(' '),
        submitterEmail: user?.email ?? '',
        submitterPhone: user?.phone ?? '',
      },
  );
  const [photos, setPhotos] = useState<File[]>([]);
  const [documents, setDocuments] = useState<File[]>([]);
  const [errors, setErrors] = useState<Errors>({});
  const [submitting, setSubmitting] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);

  const set = <K extends keyof SampleFormValues>(field: K, value: SampleFormValues[K]) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({
      ...e,
      [field]: undefined,
      ...(field in SERVICE_FIELDS ? { services: undefined } : {}),
    }));
  };
  const text = (field: keyof SampleFormValues) => ({
    name: field,
    value: values[field] as string,
    error: errors[field],
    onChange: (e: { currentTarget: { value: string } }) => set(field, e.currentTarget.value as never),
  });

  const onSaveDraft = () => {
    try {
      const saved = saveDraft(key, {
        values,
        photoNames: photos.map((f) => f.name),
        documentNames: documents.map((f) => f.name),
      });
      setDraft(saved);
      toast.success('Draft Saved', 'Your submission was saved in this browser.');
    } catch {
      toast.error('Error', DRAFT_FAILED);
    }
  };

  const onDiscardDraft = () => {
    discardDraft(key);
    setDraft(null);
    setValues({
      ...EMPTY_SAMPLE_FORM,
      submitterName: [user?.firstName, user?.lastName].filter(Boolean).join(' '),
      submitterEmail: user?.email ?? '',
      submitterPhone: user?.phone ?? '',
    });
    setErrors({});
    toast.info('Draft discarded');
  };

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const formElement = e.currentTarget;
    if (submitting) return;
    const parsed = sampleSubmissionFields.safeParse(values);
    const next: Errors = {};
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0] ?? '') as keyof Errors;
        if (field && !next[field]) next[field] = issue.message;
      }
    }
    if (photos.length === 0) next.photos = SAMPLE_SUBMISSION_MESSAGES.photoRequired;
    setErrors(next);
    const first = next.photos ?? next.services ?? Object.values(next)[0];
    if (first) {
      toast.error('Error', next.photos ?? next.services ?? first);
      const firstField = (Object.keys(next) as (keyof Errors)[])[0];
      const target =
        firstField === 'services'
          ? formElement.querySelector<HTMLInputElement>('input[name="expertValuation"]')
          : formElement.querySelector<HTMLElement>(`[name="${firstField}"]`);
      target?.focus();
      return;
    }

    const form = new FormData();
    for (const [field, value] of Object.entries(values)) {
      if (
        !values.isPersonalSubmission ||
        !['representativeName', 'representativeEmail', 'relationshipToOwner'].includes(field)
      )
        form.append(field, String(value));
    }
    for (const f of photos) form.append('photos', f, f.name);
    for (const f of documents) form.append('documents', f, f.name);

    setSubmitting(true);
    setProgress(0);
    try {
      const sample = await submitSample(form, setProgress);
      discardDraft(key);
      await queryClient.invalidateQueries({ queryKey: sampleKeys.all });
      toast.success(
        'Sample Submitted Successfully!',
        `"${sample.itemName}" was submitted for review with ID ${displaySampleId(sample.id)}.`,
      );
      navigate('/dashboard');
    } catch (err) {
      toast.error('Error', errorMessage(err, SUBMIT_FAILED));
    } finally {
      setSubmitting(false);
      setProgress(null);
    }
  };

  return (
    <Container size="md" py="xl" px={{ base: 'sm', sm: 'md' }}>
      <Title order={1}>Submit Sample</Title>
      <Text c="dimmed" mb="lg">
        Tell us about your item. Fields marked * are required.
      </Text>

      {draft && (
        <Alert color="blue" title="Draft restored" mb="lg" role="status">
          <Stack gap="xs">
            <Text size="sm">Draft saved {formatDateTime(draft.savedAt)} has been restored.</Text>
            {(draft.photoNames.length > 0 || draft.documentNames.length > 0) && (
              <Text size="sm">
                Files are not kept with a draft; please add them again:{' '}
                {[...draft.photoNames, ...draft.documentNames].join(', ')}
              </Text>
            )}
            <Group>
              <Button variant="outline" color="red" size="xs" onClick={onDiscardDraft}>
                Discard Draft
              </Button>
            </Group>
          </Stack>
        </Alert>
      )}

      <form onSubmit={onSubmit} noValidate aria-label="Submit sample">
        <Stack gap="lg">
          <Section title="Personal Information">
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput label="Full Name" required autoComplete="name" {...text('submitterName')} />
              <TextInput
                label="Email Address"
                type="email"
                required
                autoComplete="email"
                {...text('submitterEmail')}
              />
              <TextInput label="Phone Number" type="tel" autoComplete="tel" {...text('submitterPhone')} />
              <NativeSelect
                label="Country"
                data={options(COUNTRIES, 'Select your country')}
                {...text('submitterCountry')}
              />
            </SimpleGrid>
          </Section>

          <Section title="Representative/Sender Information">
            <Checkbox
              name="isPersonalSubmission"
              label="This is a personal submission (I am the owner of the item)"
              checked={values.isPersonalSubmission}
              onChange={(e) => set('isPersonalSubmission', e.currentTarget.checked)}
            />
            {!values.isPersonalSubmission && (
              <SimpleGrid cols={{ base: 1, sm: 2 }} mt="md">
                <TextInput label="Representative Name" {...text('representativeName')} />
                <TextInput label="Representative Email" type="email" {...text('representativeEmail')} />
                <NativeSelect
                  label="Relationship to Owner"
                  data={options(RELATIONSHIPS, 'Select relationship')}
                  {...text('relationshipToOwner')}
                />
              </SimpleGrid>
            )}
          </Section>

          <Section title="Item Information">
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput label="Item Name" required {...text('itemName')} />
              <NativeSelect
                label="Category"
                required
                data={options(CATEGORIES, 'Select a category')}
                {...text('category')}
              />
              <TextInput label="Estimated Age" placeholder="e.g. circa 1850" {...text('estimatedAge')} />
              <TextInput label="Dimensions" placeholder="e.g. 20 x 12 x 15 cm" {...text('dimensions')} />
              <TextInput label="Weight" placeholder="e.g. 650 g" {...text('weight')} />
              <TextInput label="Materials" placeholder="e.g. silver, wood" {...text('materials')} />
            </SimpleGrid>
            <Textarea label="Description" required autosize minRows={4} mt="sm" {...text('description')} />
          </Section>

          <Section title="Services Required">
            <fieldset
              style={{ border: 0, padding: 0, margin: 0 }}
              aria-describedby={errors.services ? 'services-error' : undefined}
            >
              <legend style={{ marginBottom: 8 }}>Select at least one service *</legend>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                {SERVICES.map((s) => (
                  <Checkbox
                    key={s.field}
                    name={s.field}
                    label={s.label}
                    checked={values[s.field]}
                    onChange={(e) => set(s.field, e.currentTarget.checked)}
                  />
                ))}
              </SimpleGrid>
              {errors.services && (
                <Text size="sm" c="red.8" mt="xs" id="services-error" role="alert">
                  {errors.services}
                </Text>
              )}
            </fieldset>
          </Section>

          <Section title="Photos & Documentation">
            <Stack gap="lg">
              <FilePicker
                name="photos"
                label="Upload Photos *"
                hint={`Drag and drop or choose photos. Maximum ${MAX_SAMPLE_PHOTOS} files, ${MAX_MB}MB each, JPG, PNG, HEIC.`}
                accept={PHOTO_ACCEPT}
                files={photos}
                error={errors.photos}
                onAdd={(added) => {
                  const r = addFiles(photos, added, MAX_SAMPLE_PHOTOS);
                  setPhotos(r.files);
                  setErrors((e) => ({ ...e, photos: r.error ?? undefined }));
                }}
                onRemove={(i) => setPhotos((list) => list.filter((_, j) => j !== i))}
              />
              <FilePicker
                name="documents"
                label="Supporting Documents"
                hint={`Receipts, certificates, appraisals. PDF, DOC, DOCX, JPG, PNG; maximum ${MAX_SAMPLE_DOCUMENTS} files, ${MAX_MB}MB each.`}
                accept={DOCUMENT_ACCEPT}
                files={documents}
                error={errors.documents}
                onAdd={(added) => {
                  const r = addFiles(documents, added, MAX_SAMPLE_DOCUMENTS);
                  setDocuments(r.files);
                  setErrors((e) => ({ ...e, documents: r.error ?? undefined }));
                }}
                onRemove={(i) => setDocuments((list) => list.filter((_, j) => j !== i))}
              />
            </Stack>
          </Section>

          <Section title="Additional Information">
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <NativeSelect
                label="Purpose of Valuation"
                data={options(PURPOSES, 'Select a purpose')}
                {...text('purposeOfValuation')}
              />
              <NativeSelect
                label="Urgency Level"
                data={[
                  { value: 'standard', label: 'Standard (7-10 business days)' },
                  { value: 'urgent', label: 'Urgent (3-5 business days, additional fee)' },
                ]}
                {...text('urgencyLevel')}
              />
              <NativeSelect
                label="Estimated Value Range"
                data={options(VALUE_RANGES, 'Select a range')}
                {...text('estimatedValueRange')}
              />
            </SimpleGrid>
            <Textarea
              label="Special Instructions"
              autosize
              minRows={3}
              mt="sm"
              {...text('specialInstructions')}
            />
          </Section>

          {progress !== null && (
            <Stack gap={4}>
              <Text size="sm" id="upload-progress-label">
                Uploading… {Math.round(progress * 100)}%
              </Text>
              <Progress value={progress * 100} aria-labelledby="upload-progress-label" animated />
            </Stack>
          )}

          <Group justify="flex-end" gap="sm">
            <Button type="button" variant="default" onClick={onSaveDraft} disabled={submitting}>
              Save as Draft
            </Button>
            <Button type="submit" loading={false} disabled={submitting}>
              {submitting ? 'Submitting...' : 'Submit for Review'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Container>
  );
}

const SERVICE_FIELDS = Object.fromEntries(SERVICES.map((s) => [s.field, true]));
