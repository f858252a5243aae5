import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openPostgres } from '../../server/db/client';
import { startPostgresCluster } from './postgres';

export const TEMPLATE_DB = 'app_template';

/** One cluster per run; a migrated template database that every test file copies (vitest.config.ts leaves this project out without PostgreSQL). */
export default async function setup(project: TestProject) {
  const cluster = await startPostgresCluster();
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  await admin.query(`create database ${TEMPLATE_DB}`);
  await admin.end();
  const database = await openPostgres(cluster.urlFor(TEMPLATE_DB), { max: 1 });
  await database.close();
  project.provide('pgUrl', cluster.url);
  return () => cluster.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgUrl: string;
    pgliteTemplate: string;
  }
}
