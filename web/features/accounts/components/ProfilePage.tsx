import {
  Alert,
  Badge,
  Button,
  Center,
  Container,
  Group,
  Image,
  Loader,
  Paper,
  PasswordInput,
  Progress,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconDatabase, IconUser } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { type ComponentType, Suspense, useEffect, useState } from 'react';
import {
  type AuthUserResponse,
  PROFILE_IMAGE_PART,
  profileUpdate,
  SIGNATURE_PART,
} from '../../../../common/contracts/accounts';
import { isLabRole } from '../../../../common/domain/roles';
import { FilePicker } from '../../../components/FilePicker';
import { LazyNotesEditor } from '../../../components/LazyNotesEditor';
import { EmailField } from '../../../components/EmailField';
import { focusFirstError, validateOnBlurAfterRelease } from '../../../lib/forms';
import { usePersonalImage } from '../../../lib/personal-image';
import { authUserQuery, useSession } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { usePageTitle } from '../../../lib/use-page-title';
import { type ProfileFields, profileFormData, useUpdateProfile } from '../api';
import { serverFieldErrors } from '../form-errors';
import { AccountSecurity } from './AccountSecurity';
import { TwoFactorSection } from './TwoFactorSection';
import { IMAGE_ACCEPT, imageProblem, PROFILE_TEXT, profileUpdateError } from '../profile-messages';

const fieldsOf = (user: AuthUserResponse): ProfileFields => ({
  email: user.email,
  phone: user.phone ?? '',
  firstName: user.firstName ?? '',
  lastName: user.lastName ?? '',
  currentPassword: '',
  ...(isLabRole(user.role) ? { qualifications: user.qualifications ?? '' } : {}),
});

/**
 * `partnerSections`: the API keys and webhooks sections (features/partners), passed in by
 * web/app/routes.tsx for the accounts that may hold them.
 */
export function ProfilePage({
  partnerSections: PartnerSections,
}: { partnerSections?: ComponentType<{ role: string }> } = {}) {
  usePageTitle('Profile', 'Your contact details, profile picture and signature.');
  const { token } = useSession();
  const query = useQuery(authUserQuery(token));

  if (query.isPending) {
    return (
      <Center mih="40vh" role="status">
        <Group gap="sm">
          <Loader size="sm" aria-hidden="true" />
          <Text>Loading profile...</Text>
        </Group>
      </Center>
    );
  }
  if (query.isError || !query.data) {
    return (
      <Container size="sm" py="xl">
        <Alert color="red" title="Error" role="alert">
          {PROFILE_TEXT.loadFailed}
        </Alert>
      </Container>
    );
  }
  return <ProfileForm user={query.data} token={token} partnerSections={PartnerSections} />;
}

type ImageField = typeof PROFILE_IMAGE_PART | typeof SIGNATURE_PART;
const IMAGE_FIELDS: readonly ImageField[] = [PROFILE_IMAGE_PART, SIGNATURE_PART];

function ProfileForm({
  user,
  token,
  partnerSections: PartnerSections,
}: {
  user: AuthUserResponse;
  token: string | null;
  partnerSections?: ComponentType<{ role: string }>;
}) {
  const labRole = isLabRole(user.role);
  const update = useUpdateProfile(token);
  const form = useForm<ProfileFields>({
    mode: 'controlled',
    initialValues: fieldsOf(user),
    validate: schemaResolver(profileUpdate, { sync: true }),
    ...validateOnBlurAfterRelease<ProfileFields>(),
  });
  const [files, setFiles] = useState<Record<ImageField, File | null>>({
    profileImage: null,
    signature: null,
  });
  // A refused file stays chosen (and blocks the save) until it is removed or replaced.
  const fileErrors: Record<ImageField, string | null> = {
    profileImage: files.profileImage ? imageProblem(files.profileImage) : null,
    signature: files.signature ? imageProblem(files.signature) : null,
  };

  const picture = usePersonalImage(user.profileImageUrl);
  const signature = usePersonalImage(labRole ? user.signature : null);
  const imagesFailed = picture.isError || signature.isError;
  useEffect(() => {
    if (imagesFailed) toast.error('Error', PROFILE_TEXT.imagesFailed);
  }, [imagesFailed]);

  const setFile = (field: ImageField, file: File | null) => setFiles((f) => ({ ...f, [field]: file }));

  const submit = form.onSubmit(async (values) => {
    const refused = IMAGE_FIELDS.find((field) => fileErrors[field]);
    // The message is already beside the picker; a toast at 375 px would cover its Remove button.
    if (refused) {
      focusFirstError({ [refused]: fileErrors[refused] });
      return;
    }
    try {
      const saved = await update.mutateAsync(
        profileFormData(values, {
          profileImage: files.profileImage,
          signature: labRole ? files.signature : null,
        }),
      );
      form.setValues(fieldsOf(saved));
      form.resetDirty(fieldsOf(saved));
      setFiles({ profileImage: null, signature: null });
      toast.success(
        PROFILE_TEXT.saved,
        saved.email !== user.email
          ? 'Your profile has been saved. We have sent a confirmation link to your new address.'
          : 'Your profile has been saved.',
      );
    } catch (err) {
      const fieldErrors = serverFieldErrors(err);
      form.setErrors(fieldErrors);
      focusFirstError(fieldErrors);
      toast.error(PROFILE_TEXT.updateFailed, profileUpdateError(err));
    }
  }, focusFirstError);

  // A new address needs the current password (docs/product/accounts-and-sessions.md).
  const emailChanges = form.values.email.trim().toLowerCase() !== user.email;

  const fileInput = (
    field: ImageField,
    label: string,
    current: { url: string | null; isLoading: boolean },
    alt: string,
  ) => (
    <FilePicker
      name={field}
      label={label}
      hint="JPEG or PNG, less than 2MB"
      accept={IMAGE_ACCEPT}
      buttonText="Choose an image"
      multiple={false}
      files={files[field] ? [files[field]] : []}
      error={fileErrors[field]}
      onAdd={(added) => setFile(field, added[0] ?? null)}
      onRemove={() => setFile(field, null)}
      current={
        <Paper withBorder radius="md" p="xs" w="fit-content" bg="gray.0">
          {current.url ? (
            <Image src={current.url} alt={alt} h={120} w="auto" maw="100%" fit="contain" radius="sm" />
          ) : current.isLoading ? (
            <Loader size="sm" aria-label={`Loading ${alt.toLowerCase()}`} />
          ) : (
            <Group gap={6} c="dark.3" p="xs">
              <IconUser size={18} aria-hidden="true" />
              <Text size="sm">None uploaded yet</Text>
            </Group>
          )}
        </Paper>
      }
    />
  );

  return (
    <Container size="md" py={{ base: 'lg', md: 48 }}>
      <Paper withBorder radius="lg" shadow="sm" p={{ base: 'md', sm: 'xl' }}>
        <Group justify="space-between" align="flex-start" mb="lg" gap="sm">
          <Stack gap={4}>
            <Title order={1} size="h2" id="profile-title">
              Profile
            </Title>
            <Text c="dark.3">Keep your contact details up to date.</Text>
          </Stack>
          <Badge
            color="teal.9"
            variant="filled"
            size="lg"
            leftSection={<IconDatabase size={14} aria-hidden="true" />}
          >
            {PROFILE_TEXT.loaded}
          </Badge>
        </Group>
        {imagesFailed && (
          <Alert color="red" mb="md">
            {PROFILE_TEXT.imagesFailed}
          </Alert>
        )}
        <form onSubmit={submit} noValidate aria-labelledby="profile-title">
          <Stack gap="lg">
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              <EmailField {...form.getInputProps('email')} />
              <TextInput
                label="Phone"
                name="phone"
                type="tel"
                autoComplete="tel"
                {...form.getInputProps('phone')}
              />
              <TextInput
                label="First Name"
                name="firstName"
                autoComplete="given-name"
                {...form.getInputProps('firstName')}
              />
              <TextInput
                label="Last Name"
                name="lastName"
                autoComplete="family-name"
                {...form.getInputProps('lastName')}
              />
              {emailChanges && (
                <PasswordInput
                  label="Current password"
                  name="currentPassword"
                  description="Needed to change your e-mail address"
                  autoComplete="current-password"
                  withAsterisk
                  visibilityToggleButtonProps={{ 'aria-label': 'Show or hide the current password' }}
                  {...form.getInputProps('currentPassword')}
                />
              )}
            </SimpleGrid>
            <SimpleGrid cols={{ base: 1, sm: labRole ? 2 : 1 }} spacing="lg">
              {fileInput(PROFILE_IMAGE_PART, 'Profile Picture', picture, 'Current profile picture')}
              {labRole && fileInput(SIGNATURE_PART, 'Signature', signature, 'Current signature')}
            </SimpleGrid>
            {labRole && (
              // The rich-text editor is loaded only for staff and admins, who keep qualifications.
              <LazyNotesEditor
                loading="Loading the qualifications editor"
                name="qualifications"
                label="Qualifications"
                description="Printed with your signature in the certification of the reports you sign: credentials, memberships, years of practice, areas of expertise."
                value={form.values.qualifications ?? ''}
                onChange={(html) => form.setFieldValue('qualifications', html)}
                error={form.errors.qualifications as string | undefined}
              />
            )}
            {update.isPending && (files.profileImage || files.signature) && (
              <Progress value={Math.round(update.progress * 100)} aria-label="Upload progress" animated />
            )}
            <Group justify="flex-end">
              <Button type="submit" loading={false} disabled={update.isPending}>
                {update.isPending ? 'Saving...' : 'Update Profile'}
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
      <AccountSecurity user={user} token={token} />
      <TwoFactorSection user={user} token={token} />
      {PartnerSections && (
        <Suspense fallback={null}>
          <PartnerSections role={user.role} />
        </Suspense>
      )}
    </Container>
  );
}
