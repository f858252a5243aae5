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
import { schemaResolver, useForm } from '@mantine/form';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
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
  MAX_SAMPLE_PHOTOS,
  PHOTO_ACCEPT,
} from '../../../../common/domain/uploads';
import { FilePicker } from '../../../components/FilePicker';
import type { CollectionFieldSlot } from '../../../components/slots';
import { errorMessage } from '../../../lib/api';
import { formatDateTime } from '../../../lib/format';
import { useSession } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { usePageTitle } from '../../../lib/use-page-title';
import { useSubmitSample } from '../api';
import { freshSampleForm, revaluationForm, type SampleFormValues } from '../draft';
import { sampleDetailQuery } from '../../../lib/sample-detail';
import { addFiles, isOversized, MAX_FILE_MB, oversizedError, submissionBody } from '../submission-body';
import { focusFirstInvalid, leadingError } from '../submission-focus';
import { useSampleDraft } from '../use-sample-draft';

const SUBMIT_FAILED = 'Failed to submit sample. Please try again.';

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

/**
 * /submit-sample: the submission contract's schema checks the fields when the form is sent (not on
 * blur), the photos are checked beside it, and the body goes up with a progress bar.
 */
export function SubmitSamplePage({
  collectionField: CollectionField,
}: { collectionField?: CollectionFieldSlot } = {}) {
  usePageTitle('Submit Sample', 'Submit an item to the laboratory for valuation.');
  const { user } = useSession();
  const navigate = useNavigate();
  const { draft, save, discard, forget } = useSampleDraft(user?.id);
  const submit = useSubmitSample();
  const form = useForm<SampleFormValues>({
    mode: 'controlled',
    initialValues: draft?.values ?? freshSampleForm(user),
    validate: schemaResolver(sampleSubmissionFields, { sync: true }),
  });
  // "Request re-valuation" opens this page with ?revalue=ID: the earlier submission fills the form.
  const [params] = useSearchParams();
  const revalueId = Number(params.get('revalue')) || null;
  const earlier = useQuery({ ...sampleDetailQuery(revalueId ?? 0), enabled: revalueId !== null });
  const [prefilledFrom, setPrefilledFrom] = useState<number | null>(null);
  useEffect(() => {
    if (earlier.data && prefilledFrom !== earlier.data.id) {
      form.setValues(revaluationForm(user, earlier.data));
      setPrefilledFrom(earlier.data.id);
    }
  }, [earlier.data, prefilledFrom, form, user]);
  // "Add to collection…": preselected when the page is opened from a collection (?collection=ID).
  const [collectionId, setCollectionId] = useState(() => params.get('collection') ?? '');
  const [photos, setPhotos] = useState<File[]>([]);
  const [documents, setDocuments] = useState<File[]>([]);

  const field = (name: keyof SampleFormValues) => ({ name, ...form.getInputProps(name) });

  const onSaveDraft = () =>
    save({
      values: form.getValues(),
      photoNames: photos.map((f) => f.name),
      documentNames: documents.map((f) => f.name),
    });

  const onDiscardDraft = () => {
    discard();
    form.setValues(freshSampleForm(user));
    form.clearErrors();
  };

  const onFiles = (kind: 'photos' | 'documents', current: File[], added: File[]) => {
    const kept = addFiles(current, added, kind === 'photos' ? MAX_SAMPLE_PHOTOS : MAX_SAMPLE_DOCUMENTS);
    (kind === 'photos' ? setPhotos : setDocuments)(kept.files);
    if (kept.error) form.setFieldError(kind, kept.error);
    else form.clearFieldError(kind);
  };

  const onRemoveFile = (kind: 'photos' | 'documents', current: File[], index: number) => {
    const kept = current.filter((_, j) => j !== index);
    (kind === 'photos' ? setPhotos : setDocuments)(kept);
    const tooBig = oversizedError(kept);
    if (tooBig) form.setFieldError(kind, tooBig);
    else form.clearFieldError(kind);
  };

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const formElement = e.currentTarget;
    if (submit.isPending) return;
    const { errors } = form.validate();
    const photoError = photos.length ? oversizedError(photos) : SAMPLE_SUBMISSION_MESSAGES.photoRequired;
    const documentError = oversizedError(documents);
    const allErrors = {
      ...errors,
      ...(photoError ? { photos: photoError } : {}),
      ...(documentError ? { documents: documentError } : {}),
    };
    const leading = leadingError(allErrors);
    if (leading) {
      form.setErrors(allErrors);
      toast.error('Error', leading);
      focusFirstInvalid(formElement, allErrors);
      return;
    }
    try {
      const body = submissionBody(form.getValues(), photos, documents);
      if (collectionId) body.append('collectionId', collectionId);
      const sample = await submit.mutateAsync(body);
      forget();
      toast.success(
        'Sample Submitted Successfully!',
        `"${sample.itemName}" was submitted for review with ID ${displaySampleId(sample.id)}.`,
      );
      navigate('/dashboard');
    } catch (err) {
      toast.error('Error', errorMessage(err, SUBMIT_FAILED));
    }
  };

  return (
    <Container size="md" py="xl" px={{ base: 'sm', sm: 'md' }}>
      <Title order={1}>Submit Sample</Title>
      <Text c="dimmed" mb="lg">
        Tell us about your item. Fields marked * are required.
      </Text>

      {earlier.data && prefilledFrom === earlier.data.id && (
        <Alert color="blue" mb="md" title="Re-valuation">
          The details of {earlier.data.itemName} are filled in from your earlier submission. Please add
          current photos of the item and check the details before you submit.
        </Alert>
      )}
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
              <TextInput label="Full Name" required autoComplete="name" {...field('submitterName')} />
              <TextInput
                label="Email Address"
                type="email"
                required
                autoComplete="email"
                {...field('submitterEmail')}
              />
              <TextInput label="Phone Number" type="tel" autoComplete="tel" {...field('submitterPhone')} />
              <NativeSelect
                label="Country"
                data={options(COUNTRIES, 'Select your country')}
                {...field('submitterCountry')}
              />
            </SimpleGrid>
          </Section>

          <Section title="Representative/Sender Information">
            <Checkbox
              name="isPersonalSubmission"
              label="This is a personal submission (I am the owner of the item)"
              {...form.getInputProps('isPersonalSubmission', { type: 'checkbox' })}
            />
            {!form.values.isPersonalSubmission && (
              <SimpleGrid cols={{ base: 1, sm: 2 }} mt="md">
                <TextInput label="Representative Name" {...field('representativeName')} />
                <TextInput label="Representative Email" type="email" {...field('representativeEmail')} />
                <NativeSelect
                  label="Relationship to Owner"
                  data={options(RELATIONSHIPS, 'Select relationship')}
                  {...field('relationshipToOwner')}
                />
              </SimpleGrid>
            )}
          </Section>

          <Section title="Item Information">
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput label="Item Name" required {...field('itemName')} />
              <NativeSelect
                label="Category"
                required
                data={options(CATEGORIES, 'Select a category')}
                {...field('category')}
              />
              <TextInput label="Estimated Age" placeholder="e.g. circa 1850" {...field('estimatedAge')} />
              <TextInput label="Dimensions" placeholder="e.g. 20 x 12 x 15 cm" {...field('dimensions')} />
              <TextInput label="Weight" placeholder="e.g. 650 g" {...field('weight')} />
              <TextInput label="Materials" placeholder="e.g. silver, wood" {...field('materials')} />
            </SimpleGrid>
            <Textarea label="Description" required autosize minRows={4} mt="sm" {...field('description')} />
          </Section>

          <Section title="Services Required">
            <fieldset
              style={{ border: 0, padding: 0, margin: 0 }}
              aria-describedby={form.errors.services ? 'services-error' : undefined}
            >
              <legend style={{ marginBottom: 8 }}>Select at least one service *</legend>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                {SERVICES.map((s) => (
                  <Checkbox
                    key={s.field}
                    name={s.field}
                    label={s.label}
                    {...form.getInputProps(s.field, { type: 'checkbox' })}
                    onChange={(e) => {
                      form.setFieldValue(s.field, e.currentTarget.checked);
                      form.clearFieldError('services');
                    }}
                  />
                ))}
              </SimpleGrid>
              {form.errors.services && (
                <Text size="sm" c="red.8" mt="xs" id="services-error" role="alert">
                  {form.errors.services}
                </Text>
              )}
            </fieldset>
          </Section>

          <Section title="Photos & Documentation">
            <Stack gap="lg">
              <FilePicker
                name="photos"
                label="Upload Photos *"
                hint={`Drag and drop or choose photos. Maximum ${MAX_SAMPLE_PHOTOS} files, ${MAX_FILE_MB}MB each, JPG, PNG, HEIC.`}
                accept={PHOTO_ACCEPT}
                buttonText="Choose photos"
                files={photos}
                error={form.errors.photos}
                onAdd={(added) => onFiles('photos', photos, added)}
                onRemove={(i) => onRemoveFile('photos', photos, i)}
                isRefused={isOversized}
              />
              <FilePicker
                name="documents"
                label="Supporting Documents"
                hint={`Receipts, certificates, appraisals. PDF, DOC, DOCX, JPG, PNG; maximum ${MAX_SAMPLE_DOCUMENTS} files, ${MAX_FILE_MB}MB each.`}
                accept={DOCUMENT_ACCEPT}
                buttonText="Choose documents"
                files={documents}
                error={form.errors.documents}
                onAdd={(added) => onFiles('documents', documents, added)}
                onRemove={(i) => onRemoveFile('documents', documents, i)}
                isRefused={isOversized}
              />
            </Stack>
          </Section>

          <Section title="Additional Information">
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              {CollectionField && <CollectionField value={collectionId} onChange={setCollectionId} />}
              <NativeSelect
                label="Purpose of Valuation"
                data={options(PURPOSES, 'Select a purpose')}
                {...field('purposeOfValuation')}
              />
              <NativeSelect
                label="Urgency Level"
                data={[
                  { value: 'standard', label: 'Standard (7-10 business days)' },
                  { value: 'urgent', label: 'Urgent (3-5 business days, additional fee)' },
                ]}
                {...field('urgencyLevel')}
              />
              <NativeSelect
                label="Estimated Value Range"
                data={options(VALUE_RANGES, 'Select a range')}
                {...field('estimatedValueRange')}
              />
              <TextInput
                label="Declared Value (optional)"
                description="Your value of the item, for insurance while it travels and while we hold it."
                inputMode="decimal"
                placeholder="e.g. 2500"
                {...field('declaredValue')}
              />
              <TextInput
                label="Declared Value Currency"
                description="Three letters, such as USD, EUR or GBP."
                maxLength={3}
                placeholder="USD"
                {...field('declaredCurrency')}
              />
            </SimpleGrid>
            <Textarea
              label="Special Instructions"
              autosize
              minRows={3}
              mt="sm"
              {...field('specialInstructions')}
            />
          </Section>

          {submit.progress !== null && (
            <Stack gap={4}>
              <Text size="sm" id="upload-progress-label">
                Uploading… {Math.round(submit.progress * 100)}%
              </Text>
              <Progress value={submit.progress * 100} aria-labelledby="upload-progress-label" animated />
            </Stack>
          )}

          <Group justify="flex-end" gap="sm">
            <Button type="button" variant="default" onClick={onSaveDraft} disabled={submit.isPending}>
              Save as Draft
            </Button>
            <Button type="submit" loading={false} disabled={submit.isPending}>
              {submit.isPending ? 'Submitting...' : 'Submit for Review'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Container>
  );
}
