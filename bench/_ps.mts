import { prepareDataTemplate, startProduct, DATA_TEMPLATE_ENV } from '../tests/support/product';
process.env[DATA_TEMPLATE_ENV] = await prepareDataTemplate();
for (let i = 0; i < 5; i++) {
  const t = performance.now();
  const p = await startProduct({});
  const t1 = performance.now();
  await p.stop();
  console.log('start ms', (t1 - t).toFixed(0), 'stop ms', (performance.now() - t1).toFixed(0));
}
