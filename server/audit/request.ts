import type { FastifyRequest } from 'fastify';
import type { AuditWho } from './audit';

/** Who is acting in a request, for recordAudit: `{ ...auditContext(request), action, subject, … }`. */
export function auditContext(request: FastifyRequest): AuditWho {
  const user = request.user;
  return { actor: user ? { id: user.id, email: user.email } : null, ip: request.ip };
}
