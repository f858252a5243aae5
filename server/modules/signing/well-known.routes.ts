import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app-deps';

// Public keys anyone needs to check the lab's signatures without asking the lab
// (docs/product/signed-reports.md): the root certificate behind every signed PDF, and the keys
// behind every report credential, retired ones included.

export const ROOT_CA_PATH = '/.well-known/lab-root-ca.pem';
export const JWKS_PATH = '/.well-known/jwks.json';

export function wellKnownRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const jwks = JSON.stringify(deps.keys.credentials.jwks);
    app.get(
      ROOT_CA_PATH,
      {
        config: { public: true },
        schema: {
          tags: ['verification'],
          summary: "The lab's root certificate (PEM): trust it to see signed report PDFs as trusted",
        },
      },
      async (_request, reply) =>
        reply
          .type('application/x-pem-file')
          .header('content-disposition', 'inline; filename="lab-root-ca.pem"')
          .header('cache-control', 'public, max-age=3600')
          .send(deps.keys.pdf.rootCaPem),
    );
    app.get(
      JWKS_PATH,
      {
        config: { public: true },
        schema: {
          tags: ['verification'],
          summary: 'The public keys (JWK set) that sign report credentials, retired keys included',
        },
      },
      async (_request, reply) =>
        reply
          .type('application/jwk-set+json')
          .header('cache-control', 'public, max-age=300')
          .header('access-control-allow-origin', '*')
          .send(jwks),
    );
  };
}
