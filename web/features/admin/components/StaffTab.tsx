import { Alert, Loader, NativeSelect, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ROLE_LABELS, ROLES, type Role } from '../../../../common/domain/roles';
import { toast } from '../../../lib/toast';
import { useChangeRole, usersQuery } from '../api';
import { reason } from './messages';

export function StaffTab() {
  const users = useQuery(usersQuery());
  const changeRole = useChangeRole();
  if (users.isPending) return <Loader aria-label="Loading staff" />;
  if (users.isError)
    return (
      <Alert color="red" role="alert">
        {`Failed to load staff: ${reason(users.error)}`}
      </Alert>
    );
  if (users.data.length === 0) return <Text c="gray.7">No users found.</Text>;
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table striped verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Email</Table.Th>
            <Table.Th>Role</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {users.data.map((u) => {
            const name = [u.firstName, u.lastName].filter(Boolean).join(' ') || u.email;
            return (
              <Table.Tr key={u.id}>
                <Table.Td>{name}</Table.Td>
                <Table.Td>{u.email}</Table.Td>
                <Table.Td>
                  <NativeSelect
                    size="xs"
                    name="role"
                    aria-label={`Role of ${name}`}
                    value={u.role}
                    disabled={changeRole.isPending && changeRole.variables?.id === u.id}
                    data={ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] }))}
                    onChange={(e) =>
                      changeRole.mutate(
                        { id: u.id, role: e.currentTarget.value as Role },
                        {
                          onSuccess: () => toast.success('User role updated'),
                          onError: (err) =>
                            toast.error('Error', `Failed to update user role: ${reason(err)}`),
                        },
                      )
                    }
                  />
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
