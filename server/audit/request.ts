import type { FastifyRequest } from 'fastify';
import type { AuditEventInput } from './audit';

/** Who is acting in a request, for recordAudit: `{ ...auditContext(request), action, subject, … }`. */
export function auditContext(request: FastifyRequest): Pick<AuditEventInput, 'actor' | 'ip'> {
  const user = request.user;
  return { actor: user ? { id: user.id, email: user.email } : null, ip: request.ip };
}
