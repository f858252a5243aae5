import { auditContext } from '../../audit/request';
import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminUser,
  adminUsersQuery,
  adminUsersResponse,
  authUserResponse,
  changeRoleRequest,
  EMAIL_TAKEN_MESSAGE,
  CURRENT_PASSWORD_REQUIRED,
  UNPAGED_USERS_LIMIT,
  setActiveRequest,
  WRONG_CURRENT_PASSWORD,
} from '../../../common/contracts/accounts';
import { errorResponses, idParams, RECORD_CALL_ERRORS } from '../../../common/contracts/errors';
import { inMegabytes, MAX_IMAGE_BYTES } from '../../../common/domain/uploads';
import type { AppDeps } from '../../app-deps';
import { TOTAL_COUNT_HEADER } from '../../../common/contracts/workflow';
import { currentUser, requirePermission } from '../../plugins/auth';
import { badRequest, conflict, toHttpError, unauthorized } from '../../plugins/errors';
import type { ImageUpload } from '../../plugins/image-upload';
import { canManageUsers } from '../../policies/users';
import { eq } from 'drizzle-orm';
import { users } from '../../db/schema';
import { newVerifyUrl } from '../accounts/account-tokens';
import { findUserById } from '../accounts/accounts.queries';
import { checkCurrentPassword } from '../accounts/current-password';
import { presentAuthUser } from '../accounts/presenters';
import { changeRole, setAccountActive } from './change-account';
import { resetTwoFactor } from './reset-two-factor';
import { readProfileForm } from './profile-form';
import { sanitizeNotes } from '../reports/notes-sanitizer';
import { emailTakenByOther, listUsersPage, updateProfile } from './users.queries';

/** What a role change or (de)activation answers: the account as it now is, or why not. */
const accountChangeResponses = { 200: adminUser, ...RECORD_CALL_ERRORS };

/** Profile (PUT /api/users/profile) and account administration (/api/admin/users…). */
export function usersRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const storeImage = async (folder: 'profile' | 'signature', image: ImageUpload) => {
    const key = `${folder}/${randomBytes(16).toString('hex')}.${image.ext}`;
    await deps.storage.put(key, image.buffer);
    return key;
  };
  const removeQuietly = async (keys: (string | null | undefined)[]) => {
    for (const key of keys) {
      if (!key) continue;
      try {
        await deps.storage.delete(key);
      } catch {
        // A file that cannot be removed now is an orphan, not a failed request.
      }
    }
  };

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
        const { profile } = form;
        if (await emailTakenByOther(deps.db, profile.email, user.id)) throw conflict(EMAIL_TAKEN_MESSAGE);
        const before = await findUserById(deps.db, user.id);
        if (!before) throw unauthorized('Invalid or expired token');
        // A new e-mail address needs the current password (docs/product/accounts-and-sessions.md).
        const emailChanges = profile.email !== before.email;
        if (emailChanges) {
          if (!profile.currentPassword)
            throw badRequest(CURRENT_PASSWORD_REQUIRED, [
              { path: 'currentPassword', message: CURRENT_PASSWORD_REQUIRED },
            ]);
          await checkCurrentPassword(
            deps.loginThrottle,
            before,
            profile.currentPassword,
            request.ip,
            'currentPassword',
            WRONG_CURRENT_PASSWORD,
          );
        }
        const { currentPassword: _currentPassword, qualifications, ...rest } = profile;
        const changes = {
          ...rest,
          ...(qualifications === undefined ? {} : { qualifications: sanitizeNotes(qualifications) }),
        };

        const written: string[] = [];
        try {
          const profileImageUrl = form.profileImage
            ? await storeImage('profile', form.profileImage)
            : undefined;
          if (profileImageUrl) written.push(profileImageUrl);
          const signature = form.signature ? await storeImage('signature', form.signature) : undefined;
          if (signature) written.push(signature);
          const updated = await deps.db.transaction(async (tx) => {
            const row = await updateProfile(tx, user.id, { ...changes, profileImageUrl, signature });
            if (row && emailChanges) {
              // The old address is told; the new one gets its own confirmation link.
              await tx.update(users).set({ emailVerifiedAt: null }).where(eq(users.id, row.id));
              row.emailVerifiedAt = null;
              await deps.mailer.queue(tx, before.email, 'emailChanged', {
                firstName: row.firstName,
                newEmail: row.email,
                forgotUrl: deps.mailer.url('/contact'),
              });
              await deps.mailer.queue(tx, row.email, 'verifyEmail', {
                firstName: row.firstName,
                verifyUrl: await newVerifyUrl(tx, deps.mailer, row),
              });
            }
            return row;
          });
          if (!updated) throw unauthorized('Invalid or expired token');
          // Replaced images leave storage once the row points at the new ones.
          await removeQuietly([profileImageUrl && before.profileImageUrl, signature && before.signature]);
          return presentAuthUser(updated);
        } catch (err) {
          await removeQuietly(written);
          // Another account took the e-mail between the check and the update.
          if (toHttpError(err).status === 409) throw conflict(EMAIL_TAKEN_MESSAGE);
          throw err;
        }
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
