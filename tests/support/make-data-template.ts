// Prints the path of a fresh e2e DATA_DIR template (./product.ts, prepareDataTemplate): scripts/test.mjs
// makes it while the API suite runs, and hands it to the e2e step through E2E_DATA_TEMPLATE.
import { prepareDataTemplate } from './product';

process.stdout.write(`${await prepareDataTemplate()}\n`);
