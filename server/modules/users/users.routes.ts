import { auditContext } from '../../audit/request';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminUser,
  adminUsersQuery,
  adminUsersResponse,
  authUserResponse,
  changeRoleRequest,
  UNPAGED_USERS_LIMIT,
  setActiveRequest,
} from '../../../common/contracts/accounts';
import { errorResponses, idParams, RECORD_CALL_ERRORS } from '../../../common/contracts/errors';
import { inMegabytes, MAX_IMAGE_BYTES } from '../../../common/domain/uploads';
import type { AppDeps } from '../../app-deps';
import { TOTAL_COUNT_HEADER } from '../../../common/contracts/workflow';
import { currentUser, requirePermission } from '../../plugins/auth';
import { canManageUsers } from '../../policies/users';
import { presentAuthUser } from '../accounts/accounts.presenter';
import { changeRole, setAccountActive } from './change-account';
import { resetTwoFactor } from './reset-two-factor';
import { readProfileForm } from './profile-form';
import { listUsersPage } from './users.queries';
import { updateProfile } from './update-profile';

/** What a role change or (de)activation answers: the account as it now is, or why not. */
const accountChangeResponses = { 200: adminUser, ...RECORD_CALL_ERRORS };

/** Profile (PUT /api/users/profile) and account administration (/api/admin/users…). */
export function usersRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.put(
      '/api/users/profile',
      {
        schema: {
          tags: ['accounts'],
          summary: 'Update the signed-in user’s profile (multipart: profile JSON, profileImage, signature)',
          description:
            "multipart/form-data: part 'profile' is JSON {email, phone, firstName, lastName, qualifications (staff and admin)}; optional files " +
            `'profileImage' and 'signature' (staff and admin only), JPEG or PNG under ${inMegabytes(MAX_IMAGE_BYTES)} MB each.`,
          security: [{ bearer: [] }],
          consumes: ['multipart/form-data'],
          response: { 200: authUserResponse, ...errorResponses(400, 401, 403, 409, 413, 415, 429, 503) },
        },
      },
      async (request) => {
        const user = currentUser(request);
        const form = await readProfileForm(request, user);
        return presentAuthUser(await updateProfile(deps, user, form, request.ip));
      },
    );

    app.get(
      '/api/admin/users',
      {
        onRequest: requirePermission(canManageUsers),
        schema: {
          tags: ['admin'],
          summary: 'List accounts, ordered by id; ?role=, ?search= (name or e-mail), ?page=&pageSize=',
          description:
            'Without page: the first 500 matching accounts. With page: one page. The total is in X-Total-Count.',
          security: [{ bearer: [] }],
          querystring: adminUsersQuery,
          response: { 200: adminUsersResponse, ...errorResponses(400, 401, 403) },
        },
      },
      async (request, reply) => {
        const { role, search, page, pageSize } = request.query;
        const filter = { role, search: search || undefined };
        if (page === undefined) {
          // Never unbounded: the first UNPAGED_USERS_LIMIT accounts, and how many match in all.
          const { rows, total } = await listUsersPage(deps.db, filter, 1, UNPAGED_USERS_LIMIT);
          reply.header(TOTAL_COUNT_HEADER, String(total));
          return rows;
        }
        const { rows, total } = await listUsersPage(deps.db, filter, page, pageSize);
        reply.header(TOTAL_COUNT_HEADER, String(total));
        reply.header('cache-control', 'private, no-store');
        return rows;
      },
    );

    app.post(
      '/api/admin/users/:id/role',
      {
        onRequest: requirePermission(canManageUsers),
        schema: {
          tags: ['admin'],
          summary: 'Change an account’s role (user, staff, admin); the last admin cannot be demoted',
          security: [{ bearer: [] }],
          params: idParams,
          body: changeRoleRequest,
          response: accountChangeResponses,
        },
      },
      async (request) => changeRole(deps.db, request.params.id, request.body.role, auditContext(request)),
    );

    app.post(
      '/api/admin/users/:id/active',
      {
        onRequest: requirePermission(canManageUsers),
        schema: {
          tags: ['admin'],
          summary: 'Deactivate (tokens stop at once, login refused) or reactivate an account',
          security: [{ bearer: [] }],
          params: idParams,
          body: setActiveRequest,
          response: accountChangeResponses,
        },
      },
      async (request) =>
        setAccountActive(deps.db, request.params.id, request.body.isActive, auditContext(request)),
    );

    app.post(
      '/api/admin/users/:id/2fa/reset',
      {
        onRequest: requirePermission(canManageUsers),
        schema: {
          tags: ['admin'],
          summary:
            "Turn off another account's two-factor sign-in (lost authenticator); its recovery codes end and the owner is mailed",
          description: '403 for your own account (turn it off from the profile); 409 when it is not on.',
          security: [{ bearer: [] }],
          params: idParams,
          response: accountChangeResponses,
        },
      },
      async (request) =>
        resetTwoFactor(deps.db, deps.mailer, currentUser(request), auditContext(request), request.params.id),
    );
  };
}
