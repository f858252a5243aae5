// `npm run audit:verify`: checks the audit trail's hash chain from the first event to the head, as
// GET /api/admin/audit/verify does, against the database the server uses (DATABASE_URL, else the
// embedded database in DATA_DIR/db — stop the server first: the embedded database has one user at a
// time). Prints the answer as JSON on stdout and a sentence on stderr; exits 0 when the chain is
// valid, 1 when it is broken, 2 when it could not be checked. docs/product/audit-trail.md
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db/client';
import { verifyAuditChain } from '../server/audit/verify-chain';

async function main(): Promise<number> {
  const config = loadConfig();
  const database = await openDatabase(config);
  try {
    const result = await verifyAuditChain(database.db);
    console.log(JSON.stringify(result));
    console.error(
      result.valid
        ? `Audit chain valid: ${result.events} events, head ${result.headHash}.`
        : `Audit chain BROKEN at event ${result.firstBrokenId}: ${result.problem}`,
    );
    return result.valid ? 0 : 1;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(2);
  },
);
