import {
  Badge,
  Button,
  Group,
  NativeSelect,
  Stack,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { type AdminUser, USERS_PAGE_SIZE } from '../../../../common/contracts/accounts';
import { ROLE_LABELS, ROLES, type Role } from '../../../../common/domain/roles';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { LoadError, RowsSkeleton } from '../../../components/DataState';
import { ResponsiveTable } from '../../../components/ResponsiveTable';
import { useSession } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { useChangeRole, useResetTwoFactor, useSetUserActive, usersPageQuery } from '../api';
import { reason } from './messages';
import { Pager } from '../../../components/Pager';

const ROLE_FILTERS = [
  { value: '', label: 'All roles' },
  ...ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] })),
];

const nameOf = (u: AdminUser) => [u.firstName, u.lastName].filter(Boolean).join(' ') || u.email;

/**
 * Deactivate (confirmed first) or reactivate an account (docs/product/accounts-and-sessions.md).
 * An admin's own row has no button: signing oneself out of the lab for good is never a click away.
 */
function ActiveCell({ user, isSelf }: { user: AdminUser; isSelf: boolean }) {
  const setActive = useSetUserActive();
  const [asking, setAsking] = useState(false);
  const name = nameOf(user);
  const change = (isActive: boolean) =>
    setActive.mutate(
      { id: user.id, isActive },
      {
        onSuccess: () => {
          setAsking(false);
          toast.success(isActive ? 'Account reactivated' : 'Account deactivated', name);
        },
        onError: (err) => {
          setAsking(false);
          toast.error('Error', `Failed to change the account: ${reason(err)}`);
        },
      },
    );
  if (isSelf) return <Text size="sm">You</Text>;
  if (!user.isActive)
    return (
      <Button size="xs" variant="light" loading={setActive.isPending} onClick={() => change(true)}>
        Reactivate<VisuallyHidden>{` ${name}`}</VisuallyHidden>
      </Button>
    );
  return (
    <>
      <Button size="xs" variant="outline" color="red" onClick={() => setAsking(true)} aria-haspopup="dialog">
        Deactivate<VisuallyHidden>{` ${name}`}</VisuallyHidden>
      </Button>
      <ConfirmDialog
        opened={asking}
        title={`Deactivate ${name}?`}
        confirmLabel="Deactivate"
        loading={setActive.isPending}
        onConfirm={() => change(false)}
        onClose={() => setAsking(false)}
      >
        {`${user.email} will be signed out at once and cannot log in until the account is reactivated.`}
      </ConfirmDialog>
    </>
  );
}

/** What a promotion to admin hands over, said before it is confirmed. */
export const ADMIN_GRANTS =
  'An admin manages every account and role, the lab settings, every sample and report, and can withdraw issued reports.';

/**
 * The role selector asks before it saves, naming the person and both roles: a stray arrow key on the
 * focused select must not make a customer an admin. Until confirmed the select keeps the current role.
 */
function RoleCell({ user, isSelf }: { user: AdminUser; isSelf: boolean }) {
  const changeRole = useChangeRole();
  const [wanted, setWanted] = useState<Role | null>(null);
  const name = nameOf(user);
  const confirm = () => {
    if (!wanted) return;
    changeRole.mutate(
      { id: user.id, role: wanted },
      {
        onSuccess: () => {
          setWanted(null);
          toast.success('User role updated');
        },
        onError: (err) => {
          setWanted(null);
          toast.error('Error', `Failed to update user role: ${reason(err)}`);
        },
      },
    );
  };
  return (
    <>
      <NativeSelect
        size="xs"
        name="role"
        aria-label={`Role of ${name}`}
        value={user.role}
        disabled={isSelf || changeRole.isPending}
        description={isSelf ? 'Your own role (another admin can change it)' : undefined}
        data={ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] }))}
        onChange={(e) => {
          const next = e.currentTarget.value as Role;
          if (next !== user.role) setWanted(next);
        }}
      />
      <ConfirmDialog
        opened={wanted !== null}
        title={`Change the role of ${name}?`}
        confirmLabel={wanted === 'admin' ? 'Make admin' : 'Change role'}
        color={wanted === 'admin' ? 'red' : 'blue'}
        loading={changeRole.isPending}
        onConfirm={confirm}
        onClose={() => setWanted(null)}
      >
        {wanted
          ? `${name} (${user.email}) goes from ${ROLE_LABELS[user.role as Role] ?? user.role} to ${ROLE_LABELS[wanted]}.` +
            (wanted === 'admin' ? ` ${ADMIN_GRANTS}` : '')
          : ''}
      </ConfirmDialog>
    </>
  );
}

/**
 * Whether two-factor sign-in is on, and a reset (confirmed first) for an account whose owner lost the
 * authenticator and the recovery codes. The admin's own is turned off from the profile, with the
 * password and a code, so their row has no button.
 */
function TwoFactorCell({ user, isSelf }: { user: AdminUser; isSelf: boolean }) {
  const reset = useResetTwoFactor();
  const [asking, setAsking] = useState(false);
  const name = nameOf(user);
  const badge = (
    <Badge color={user.twoFactorEnabled ? 'teal' : 'gray'} variant="light">
      {user.twoFactorEnabled ? 'On' : 'Off'}
    </Badge>
  );
  if (!user.twoFactorEnabled || isSelf) return badge;
  return (
    <Group gap="xs" wrap="nowrap">
      {badge}
      <Button size="xs" variant="outline" color="red" onClick={() => setAsking(true)} aria-haspopup="dialog">
        Reset two-factor<VisuallyHidden>{` sign-in of ${name}`}</VisuallyHidden>
      </Button>
      <ConfirmDialog
        opened={asking}
        title={`Reset two-factor sign-in of ${name}?`}
        confirmLabel="Reset two-factor sign-in"
        loading={reset.isPending}
        onConfirm={() =>
          reset.mutate(user.id, {
            onSuccess: () => {
              setAsking(false);
              toast.success('Two-factor sign-in reset', `${name} can sign in with the password alone.`);
            },
            onError: (err) => {
              setAsking(false);
              toast.error('Error', `Failed to reset two-factor sign-in: ${reason(err)}`);
            },
          })
        }
        onClose={() => setAsking(false)}
      >
        {`${user.email} will sign in with the password alone, and the recovery codes stop working. Do this only when you are sure the owner asked for it: they are told by e-mail.`}
      </ConfirmDialog>
    </Group>
  );
}

/**
 * Name, Email, Role with its selector, and whether the account is active. The server searches and pages (20 a page), so the tab
 * stays quick with thousands of accounts. The admin's own role cannot be changed here: one slip
 * of the selector would lock them out of this very screen; another admin can change it.
 */
export function StaffTab() {
  const { user } = useSession();
  const [search, setSearch] = useState('');
  const [role, setRole] = useState<Role | ''>('');
  const [page, setPage] = useState(1);
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const users = useQuery(usersPageQuery({ page, search: debounced, role: role || undefined }));

  const filters = (
    <Group gap="sm" align="flex-end" wrap="wrap">
      <TextInput
        label="Search accounts"
        name="search"
        type="search"
        placeholder="Name or e-mail"
        leftSection={<IconSearch size={16} aria-hidden="true" />}
        value={search}
        onChange={(e) => {
          setSearch(e.currentTarget.value);
          setPage(1);
        }}
        style={{ flex: '1 1 220px' }}
      />
      <NativeSelect
        label="Role"
        name="roleFilter"
        data={ROLE_FILTERS}
        value={role}
        onChange={(e) => {
          setRole(e.currentTarget.value as Role | '');
          setPage(1);
        }}
        style={{ flex: '0 1 160px' }}
      />
    </Group>
  );

  let body;
  if (users.isPending) body = <RowsSkeleton label="Loading staff..." rows={5} />;
  else if (users.isError)
    body = (
      <LoadError onRetry={() => users.refetch()} retrying={users.isFetching}>
        {`Failed to load staff: ${reason(users.error)}`}
      </LoadError>
    );
  else if (users.data.rows.length === 0)
    body = (
      <Text c="gray.7" role="status">
        {debounced || role ? 'No accounts match this search.' : 'No users found.'}
      </Text>
    );
  else
    body = (
      <ResponsiveTable minWidth={900}>
        <Table striped verticalSpacing="sm" aria-busy={users.isFetching}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Email</Table.Th>
              <Table.Th>Role</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Two-factor</Table.Th>
              <Table.Th>Account</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {users.data.rows.map((u) => {
              const name = nameOf(u);
              const self = u.id === user?.id;
              return (
                <Table.Tr key={u.id} data-user-id={u.id}>
                  <Table.Td data-label="Name">{name}</Table.Td>
                  <Table.Td data-label="Email">{u.email}</Table.Td>
                  <Table.Td data-label="Role">
                    <RoleCell user={u} isSelf={self} />
                  </Table.Td>
                  <Table.Td data-label="Status">
                    <Badge color={u.isActive ? 'teal' : 'gray'} variant="light">
                      {u.isActive ? 'Active' : 'Deactivated'}
                    </Badge>
                  </Table.Td>
                  <Table.Td data-label="Two-factor">
                    <TwoFactorCell user={u} isSelf={self} />
                  </Table.Td>
                  <Table.Td data-label="Account">
                    <ActiveCell user={u} isSelf={self} />
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </ResponsiveTable>
    );

  return (
    <Stack gap="sm">
      {filters}
      {body}
      {users.data ? (
        <Pager
          page={page}
          rows={users.data.rows.length}
          total={users.data.total}
          pageSize={USERS_PAGE_SIZE}
          label="Accounts pages"
          onPage={setPage}
        />
      ) : null}
    </Stack>
  );
}
